package sweep

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"benchbed/internal/agents"
	"benchbed/internal/cluster"
	"benchbed/internal/sweep/summary"
	"benchbed/plan"
	"benchbed/results"
	"benchbed/results/rundir"
	"benchbed/results/telemetry"
)

// agentRun is the agents' run of cell c; d > 0 replaces its duration (the
// warm-up).
func (s *Sweeper) agentRun(c plan.Cell, d time.Duration, tele *cellTelemetry) agents.Job {
	w := c.Workload
	users, dur := plan.RunShape(w)
	ar := agents.Job{Name: c.ID, Clients: w.Clients, PerClient: w.AgentsPerClient, Scenario: w.ScenarioJSON,
		Auth: agents.WorkloadAuth(w), Users: users, Duration: dur, Ops: int64(w.OperationCount), Rate: w.Rate,
		Fill: fillSpec(w), Live: s.liveLine("run", tele)}
	ar = withEndpoints(ar, w, c.Variant)
	phase := telemetry.PhaseRun
	if d > 0 { // a warm-up is no fill run: its creates are deleted before the run
		ar.Duration, ar.Ops, ar.Fill, ar.Live, phase = d, 0, nil, s.liveLine("warm-up", tele), telemetry.PhaseWarmup
	}
	ar.Started = tele.phaseAt(phase, ar.Duration)
	return ar
}

// fillSpec is a fill workload's spec for the agents, nil for others.
func fillSpec(w *plan.Workload) *results.FillSpec {
	if w.Fill == nil {
		return nil
	}
	return &results.FillSpec{Objects: w.Fill.ContainerObjects, Buckets: w.Fill.Buckets}
}

// liveLine prints the merged req/s and errors about every 5 seconds.
func (s *Sweeper) liveLine(what string, tele *cellTelemetry) func(results.Live) {
	var mu sync.Mutex
	var next float64
	return func(l results.Live) {
		mu.Lock()
		defer mu.Unlock()
		if l.Elapsed < next {
			return
		}
		next = l.Elapsed + 5
		busy := tele.busiest()
		if busy != "" {
			busy = "  " + busy
		}
		s.logf("  %-7s %6.1f s  %9.1f req/s  %d errors  (%d agents)%s", what, l.Elapsed, l.ReqPerS, l.Errors, l.Agents, busy)
	}
}

// loadRun runs a load job on the agents; nil is agents.RunAgents on the
// sweep's agents' hosts.
type loadRun func(context.Context, agents.Job) (*results.Merged, error)

// measureCell measures cell c after its variant's before commands: a
// command workload's copies, or the agents.
func (s *Sweeper) measureCell(ctx context.Context, c plan.Cell, dir string, res *results.Cell, tele *cellTelemetry, lr loadRun) error {
	v := c.Variant
	if err := s.beforeCommands(ctx, "variant "+v.Name+" before", v.Before, v.BeforeOn, c.Workload.Clients); err != nil {
		return err
	}
	if c.Workload.IsCommand() {
		tele.now(telemetry.PhaseRun)
		defer tele.idle()
		return s.measureCommand(ctx, c, dir, res)
	}
	return s.measureOn(ctx, c, dir, res, tele, lr)
}

// measure runs the cell from the agents, merges their streams into the
// cell's result and writes it (cell.json) in the cell's directory. Partial
// results of an interrupted run are kept with status interrupted; a run
// whose failed operations exceed its workload's max_error_rate fails
// (results.Gate), its figures kept beside the verdict.
func (s *Sweeper) measure(ctx context.Context, c plan.Cell, dir string, res *results.Cell, tele *cellTelemetry) error {
	return s.measureOn(ctx, c, dir, res, tele, nil)
}

// measureOn is measure with the agents' run lr (nil: agents.RunAgents).
func (s *Sweeper) measureOn(ctx context.Context, c plan.Cell, dir string, res *results.Cell, tele *cellTelemetry, lr loadRun) error {
	if lr == nil {
		lr = func(ctx context.Context, j agents.Job) (*results.Merged, error) {
			return agents.RunAgents(ctx, s.opts.Agents, j)
		}
	}
	ar := s.agentRun(c, 0, tele)
	if c.Workload.AutoDuration != nil { // its end is not known: tele.idle marks it
		ar.Started = tele.phaseAt(telemetry.PhaseRun, 0)
	}
	if tele != nil {
		ar.Started = bothAt(ar.Started, tele.runStarted)
	}
	ar.LogDir = filepath.Join(dir, rundir.AgentsDir)
	stopped := agents.PreciseRun(c.Workload, &ar)
	m, err := lr(ctx, ar)
	tele.idle()
	if m != nil {
		cell := results.Summarise(m.Recording, m.Duration)
		cell.ID, cell.Variant, cell.Workload, cell.Repeat, cell.PerSecond = c.ID, c.Variant.Name, c.Workload.Name, c.Repeat, m.PerSecond
		cell.Params = c.Workload.Params()
		cell.Endpoints = summary.EndpointFigures(c.Workload, m)
		cell.Stopped, cell.WarmedUp = stopped(), tele.warmReason()
		var ferr error
		if ar.Fill != nil {
			cell.Fill, ferr = results.SummariseFill(*ar.Fill, m.Fill)
		}
		switch {
		case ctx.Err() != nil || err != nil:
		case cell.Total.Count == 0:
			err = fmt.Errorf("no operation succeeded (%d errors: %v)", cell.Total.Errors, cell.Total.ErrorsBy)
		case ferr != nil:
			err = ferr
		case c.Variant.HasFaults(): // gated phase by phase (faultResult)
		default:
			if g := results.Gate(&cell, s.tb.ErrorGate(c.Workload)); g != nil {
				err = g
			}
		}
		cell.Status = cellStatus(ctx, err)
		*res = cell
	}
	if werr := s.run.WriteCell(c.ID, res); werr != nil && err == nil {
		err = werr
	}
	return err
}

// cellStatus is the status of a cell whose measurement ended with err:
// interrupted when ctx was, failed on err, else ok (the one place that
// says so: the run, the search and a command workload's copies).
func cellStatus(ctx context.Context, err error) string {
	switch {
	case ctx.Err() != nil:
		return results.StatusInterrupted
	case err != nil:
		return results.StatusFailed
	}
	return results.StatusOK
}

// readCell reads a finished cell's result.
func (s *Sweeper) readCell(c plan.Cell) (results.Cell, error) { return s.run.ReadCell(c.ID) }

// saveLog keeps the last lines of service's log on host in the cell's
// logs/ directory, secrets and auth tokens masked.
func (s *Sweeper) saveLog(ctx context.Context, host string, svc *plan.Service, dir string) error {
	res, err := s.p.Run(context.WithoutCancel(ctx), host, cluster.SwiftDaemon(svc, nil).LogTailScript(50)+"; true")
	if err != nil {
		return err
	}
	p := filepath.Join(dir, rundir.LogsDir, rundir.LogFile(host, svc.Name))
	return rundir.WriteFileAtomic(p, []byte(s.tb.Mask(string(res.Stdout))), 0o640)
}
