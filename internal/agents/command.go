package agents

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"benchbed/plan/outparse"
	"benchbed/remote"
)

// CommandRunner runs one command on one host and waits for it: *remote.Pool.
type CommandRunner interface {
	Run(ctx context.Context, host, cmd string) (*remote.Result, error)
}

var _ CommandRunner = (*remote.Pool)(nil)

// CommandJob is one run of a command workload: Copies copies of Command at once,
// spread over Hosts in turn (copy i on Hosts[i % len(Hosts)]), each one's
// output read by Parser. A copy sees its number (0..Copies-1) and the
// number of copies as $BENCHBED_COPY and $BENCHBED_COPIES, to write files
// of its own.
type CommandJob struct {
	Command string
	Parser  outparse.Parser
	Hosts   []string
	Copies  int
}

// CommandCopy is one copy's outcome.
type CommandCopy struct {
	Index    int
	Host     string
	Output   outparse.Output // what it printed (remote.Result's head and tail)
	Figures  outparse.Figures
	Duration time.Duration
	Err      error // the command failed or its output did not parse
}

// CommandResult is a Job's outcome: every copy, and how long the slowest took.
type CommandResult struct {
	Copies   []CommandCopy
	Duration time.Duration
}

// RunCommand starts every copy of j at once and waits for them all. The error
// joins every copy's error, each naming its host and copy; Result holds
// the copies either way.
func RunCommand(ctx context.Context, r CommandRunner, j CommandJob) (CommandResult, error) {
	if j.Copies < 1 || len(j.Hosts) == 0 || j.Parser == nil {
		return CommandResult{}, fmt.Errorf("command workload: %d copies on %d hosts (need at least one of each, and a parser)", j.Copies, len(j.Hosts))
	}
	res := CommandResult{Copies: make([]CommandCopy, j.Copies)}
	start := time.Now()
	var wg sync.WaitGroup
	for i := range j.Copies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res.Copies[i] = runCopy(ctx, r, j, i)
		}()
	}
	wg.Wait()
	res.Duration = time.Since(start)
	var errs []error
	for _, c := range res.Copies {
		if c.Err != nil {
			errs = append(errs, c.Err)
		}
	}
	return res, errors.Join(errs...)
}

// runCopy runs copy i of j and parses its output.
func runCopy(ctx context.Context, r CommandRunner, j CommandJob, i int) CommandCopy {
	c := CommandCopy{Index: i, Host: j.Hosts[i%len(j.Hosts)]}
	cmd := "BENCHBED_COPY=" + strconv.Itoa(i) + " BENCHBED_COPIES=" + strconv.Itoa(j.Copies) +
		"; export BENCHBED_COPY BENCHBED_COPIES\n" + j.Command
	t := time.Now()
	out, err := r.Run(ctx, c.Host, cmd)
	c.Duration = time.Since(t)
	if out != nil {
		c.Output = outparse.Output{Stdout: out.Stdout, Stderr: out.Stderr}
	}
	if err != nil {
		c.Err = fmt.Errorf("%s: copy %d: %w", c.Host, i, err)
		return c
	}
	if c.Figures, err = j.Parser.Parse(c.Output); err != nil {
		c.Err = fmt.Errorf("%s: copy %d: %w", c.Host, i, err)
	}
	return c
}
