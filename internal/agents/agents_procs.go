package agents

import (
	"benchbed/remote"
	"benchbed/results"
	"benchbed/results/rundir"
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// startAgents starts one agent per entry of hosts, all at once (each is
// an SSH session's and a process's start); on a failure the ones started
// are stopped and the first failure in hosts' order returned.
func startAgents(ctx context.Context, hs Hosts, hosts []string, bins map[string]string) ([]*Proc, error) {
	return startEach(ctx, len(hosts), func(ctx context.Context, i int) (*Proc, error) {
		p, err := hs.Start(ctx, hosts[i], bins[hosts[i]])
		if err != nil {
			return nil, fmt.Errorf("%s: starting an agent: %w", hosts[i], err)
		}
		return p, nil
	}, func(started []*Proc) { _ = stopAgents(started) })
}

// startEach starts n processes, start(i) each, all at once (the load
// agents, the telemetry agents); on a failure it stops those started and
// returns the first failure in i's order.
func startEach(ctx context.Context, n int, start func(context.Context, int) (*Proc, error), stop func(started []*Proc)) ([]*Proc, error) {
	procs := make([]*Proc, n)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	err := remote.FanOutIndexes(ctx, 0, idx, func(ctx context.Context, i int) error {
		p, err := start(ctx, i)
		procs[i] = p
		return err
	})
	if err != nil {
		stop(slices.DeleteFunc(procs, func(p *Proc) bool { return p == nil }))
		return nil, err
	}
	return procs, nil
}

// stopAgents closes the agents' stdins (they stop) and waits for them.
func stopAgents(procs []*Proc) error {
	var errs []error
	for _, p := range procs {
		p.Stdin.Close()
	}
	for _, p := range procs {
		go func() { _, _ = io.Copy(io.Discard, p.Stdout) }()
		if err := p.Wait(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// keepStreams tees each agent's stdout into r.LogDir (when set) and
// returns the function that closes the files.
func (r Job) keepStreams(procs []*Proc, hosts []string) (func(), error) {
	if r.LogDir == "" {
		return func() {}, nil
	}
	if err := os.MkdirAll(r.LogDir, 0o750); err != nil {
		return nil, err
	}
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	for i, p := range procs {
		f, err := os.Create(filepath.Join(r.LogDir, rundir.AgentFile(i, hosts[i])))
		if err != nil {
			closeAll()
			return nil, err
		}
		files = append(files, f)
		p.Stdout = io.TeeReader(p.Stdout, f)
	}
	return closeAll, nil
}

// collect merges the agents' streams, stops the agents when ctx ends, and
// waits for every process.
func collect(ctx context.Context, procs []*Proc, hosts []string, live func(results.Live),
	each func(int, results.AgentEvent), sendErr error) (*results.Merged, error) {
	streams := make([]io.Reader, len(procs))
	for i, p := range procs {
		streams[i] = p.Stdout
	}
	done := make(chan struct{})
	var once sync.Once
	closeAll := func() {
		once.Do(func() {
			for _, p := range procs {
				p.Stdin.Close()
			}
		})
	}
	go func() {
		select {
		case <-ctx.Done():
			closeAll()
		case <-done:
		}
	}()
	if sendErr != nil {
		closeAll()
	}
	m := results.MergeStreamsEach(streams, live, each)
	close(done)
	closeAll()
	errs := []error{sendErr, m.Err}
	for i, p := range procs {
		if err := p.Wait(); err != nil {
			errs = append(errs, fmt.Errorf("agent %d on %s: %w", i, hosts[i], err))
		}
	}
	if ctx.Err() != nil {
		errs = append(errs, fmt.Errorf("agents stopped: %w", ctx.Err()))
	}
	return m, errors.Join(errs...)
}

// PoolAgents runs agents over SSH: the benchbed binary Binary (default:
// this executable) is uploaded content-addressed into Dir ("" = remote's
// default) and started as "<bin> agent".
type PoolAgents struct {
	Pool   *remote.Pool
	Binary string
	Dir    string
}

var _ Hosts = PoolAgents{}

// Install uploads the binary once per host and content.
func (a PoolAgents) Install(ctx context.Context, host string) (string, error) {
	bin := a.Binary
	if bin == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", err
		}
		bin = exe
	}
	return a.Pool.UploadBinary(ctx, host, bin, a.Dir)
}

// clockScript answers each line on stdin with the host's clock, from one
// shell (no process started per sample).
const clockScript = `bash -c 'while read -r _; do echo "$EPOCHREALTIME"; done'`

// ClockOffset samples the host's clock over one session and compares it
// with the middle of the round trip; of five samples, the one with the
// shortest round trip counts.
func (a PoolAgents) ClockOffset(ctx context.Context, host string) (time.Duration, time.Duration, error) {
	s, err := a.Pool.Start(ctx, host, clockScript)
	if err != nil {
		return 0, 0, err
	}
	defer func() {
		s.Stdin.Close()
		_, _ = io.Copy(io.Discard, s.Stdout)
		_ = s.Wait()
	}()
	br := bufio.NewReader(s.Stdout)
	var best, unc time.Duration
	for i := 0; i < 5; i++ {
		t0 := time.Now()
		if _, err := io.WriteString(s.Stdin, "\n"); err != nil {
			return 0, 0, err
		}
		line, err := br.ReadString('\n')
		t1 := time.Now()
		if err != nil {
			return 0, 0, fmt.Errorf("reading the clock (bash needed): %w", err)
		}
		remote, err := parseEpoch(strings.TrimSpace(line))
		if err != nil {
			return 0, 0, err
		}
		if rtt := t1.Sub(t0); i == 0 || rtt/2 < unc {
			best, unc = remote.Sub(t0.Add(rtt/2)), rtt/2
		}
	}
	return best, unc, nil
}

// parseEpoch reads bash's $EPOCHREALTIME ("1700000000.123456", with the
// locale's decimal separator).
func parseEpoch(s string) (time.Time, error) {
	sec, frac, _ := strings.Cut(strings.Replace(s, ",", ".", 1), ".")
	n, err := strconv.ParseInt(sec, 10, 64)
	if err != nil || len(frac) > 9 {
		return time.Time{}, fmt.Errorf("the host's clock answered %q", s)
	}
	ns, err := strconv.ParseInt((frac + "000000000")[:9], 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("the host's clock answered %q", s)
	}
	return time.Unix(n, ns), nil
}

// Start runs "<bin> agent" on host with its stdin and stdout as pipes.
func (a PoolAgents) Start(ctx context.Context, host, bin string) (*Proc, error) {
	return a.startAgent(ctx, host, bin, "agent")
}

// startAgent runs "<bin> <subcommand>" on host with its stdin and stdout
// as pipes.
func (a PoolAgents) startAgent(ctx context.Context, host, bin, subcommand string) (*Proc, error) {
	s, err := a.Pool.Start(ctx, host, remote.Quote(bin)+" "+subcommand)
	if err != nil {
		return nil, err
	}
	return &Proc{Stdin: s.Stdin, Stdout: s.Stdout, Wait: s.Wait}, nil
}
