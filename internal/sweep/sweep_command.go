package sweep

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"benchbed/internal/agents"
	"benchbed/internal/cluster"
	"benchbed/plan"
	"benchbed/results"
	"benchbed/results/rundir"
)

// measureCommand runs command workload cell c: its before commands, then
// its users copies of the command at once on its clients, each copy's
// output kept in the cell's output/ directory (secrets masked) and parsed;
// the copies' figures make the cell's metrics (cell.json). A copy that
// fails, or whose output lacks a figure, fails the cell.
func (s *Sweeper) measureCommand(ctx context.Context, c plan.Cell, dir string, res *results.Cell) error {
	w := c.Workload
	cl := w.Command
	if err := s.beforeCommands(ctx, "workload "+w.Name+" before", cl.Before, cl.BeforeOn, w.Clients); err != nil {
		return err
	}
	runCtx, cancel := context.WithTimeout(ctx, cl.Timeout)
	defer cancel()
	out, err := agents.RunCommand(runCtx, s.p, agents.CommandJob{Command: cl.Command, Parser: cl.Parser, Hosts: w.Clients, Copies: w.Users})
	if runCtx.Err() != nil && ctx.Err() == nil {
		err = errors.Join(fmt.Errorf("the command ran longer than its timeout (%s)", cl.Timeout), err)
	}
	saveErr := s.saveOutputs(dir, out)
	cell := results.Cell{ID: c.ID, Variant: c.Variant.Name, Workload: w.Name, Repeat: c.Repeat,
		DurationS: out.Duration.Seconds(), Ops: map[string]results.OpSummary{}, Params: w.Params()}
	if err == nil {
		cell.Metrics, err = out.Metrics()
	}
	if _, ok := cell.Metrics[cl.Metric]; err == nil && !ok {
		err = fmt.Errorf("the copies' output has no %s", cl.Metric)
	}
	cell.Status = cellStatus(ctx, err)
	*res = cell
	return errors.Join(err, saveErr, s.run.WriteCell(c.ID, res))
}

// beforeCommands runs cmds on hosts (default: the cell's clients), one
// host after another, in order; what names them in errors.
func (s *Sweeper) beforeCommands(ctx context.Context, what string, cmds, hosts, clients []string) error {
	if len(hosts) == 0 {
		hosts = clients
	}
	for _, h := range hosts {
		for _, cmd := range cmds {
			if _, err := s.p.Run(ctx, h, cmd); err != nil {
				return fmt.Errorf("%s: %w", what, cluster.ScriptFailed(h, "before command "+strconv.Quote(s.tb.Mask(cmd)), err))
			}
			s.logf("  %s: ran %s", h, s.tb.Mask(cmd))
		}
	}
	return nil
}

// saveOutputs keeps each copy's stdout and stderr, secrets masked, as
// output/<copy>-<host>.out and .err in the cell's directory.
func (s *Sweeper) saveOutputs(dir string, out agents.CommandResult) error {
	var errs []error
	for _, c := range out.Copies {
		out := filepath.Join(dir, rundir.OutputDir, rundir.OutputFile(c.Index, c.Host, "out"))
		errs = append(errs,
			rundir.WriteFileAtomic(out, []byte(s.tb.Mask(string(c.Output.Stdout))), 0o640),
			rundir.WriteFileAtomic(strings.TrimSuffix(out, "out")+"err", []byte(s.tb.Mask(string(c.Output.Stderr))), 0o640))
	}
	return errors.Join(errs...)
}
