package orchestrate

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"benchbed/load"
	"benchbed/plan"
	"benchbed/results"
	"benchbed/results/rundir"
	"benchbed/results/telemetry"
)

// workloadAuth is how a workload's agents reach the cluster.
func workloadAuth(w *plan.Workload) load.AuthSpec {
	if w.Auth == nil {
		return load.AuthSpec{StorageURL: w.StorageURL, Token: w.Token}
	}
	a := load.AuthSpec{URL: w.Auth.URL, User: w.Auth.User, Key: w.Auth.Key}
	if w.Auth.Kind == "v3" {
		a.Project, a.Domain = w.Auth.Project, w.Auth.Domain
	}
	return a
}

// agentRun is the agents' run of cell c; d > 0 replaces its duration (the
// warm-up).
func (s *Sweeper) agentRun(c plan.Cell, d time.Duration) agentRun {
	w := c.Workload
	users, dur := plan.RunShape(w)
	ar := agentRun{Name: c.ID, Clients: w.Clients, PerClient: w.AgentsPerClient, Scenario: w.ScenarioJSON,
		Auth: workloadAuth(w), Users: users, Duration: dur, Ops: int64(w.OperationCount), Rate: w.Rate,
		Fill: fillSpec(w), Live: s.liveLine("run")}
	phase := telemetry.PhaseRun
	if d > 0 { // a warm-up is no fill run: its creates are deleted before the run
		ar.Duration, ar.Ops, ar.Fill, ar.Live, phase = d, 0, nil, s.liveLine("warm-up"), telemetry.PhaseWarmup
	}
	ar.Started = s.telemetryPhase(phase, ar.Duration)
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
func (s *Sweeper) liveLine(what string) func(results.Live) {
	var mu sync.Mutex
	var next float64
	return func(l results.Live) {
		mu.Lock()
		defer mu.Unlock()
		if l.Elapsed < next {
			return
		}
		next = l.Elapsed + 5
		busy := s.busiestNow()
		if busy != "" {
			busy = "  " + busy
		}
		s.logf("  %-7s %6.1f s  %9.1f req/s  %d errors  (%d agents)%s", what, l.Elapsed, l.ReqPerS, l.Errors, l.Agents, busy)
	}
}

// warmup runs the cell's workload for the sweep's warm-up, unmeasured; a
// command workload has none (its before commands prepare its run).
func (s *Sweeper) warmup(ctx context.Context, c plan.Cell) error {
	if s.tb.Sweep.Warmup <= 0 || c.Workload.IsCommand() {
		return nil
	}
	_, err := runAgents(ctx, s.opts.Agents, s.agentRun(c, s.tb.Sweep.Warmup))
	s.telemetryIdle()
	return err
}

// measureCell measures cell c after its variant's before commands: a
// command workload's copies, or the agents.
func (s *Sweeper) measureCell(ctx context.Context, c plan.Cell, dir string, res *results.Cell) error {
	v := c.Variant
	if err := s.beforeCommands(ctx, "variant "+v.Name+" before", v.Before, v.BeforeOn, c.Workload.Clients); err != nil {
		return err
	}
	if c.Workload.IsCommand() {
		s.telemetryNow(telemetry.PhaseRun)
		defer s.telemetryIdle()
		return s.measureCommand(ctx, c, dir, res)
	}
	return s.measure(ctx, c, dir, res)
}

// measure runs the cell from the agents, merges their streams into the
// cell's result and writes it (cell.json) in the cell's directory. Partial
// results of an interrupted run are kept with status "interrupted"; a run
// whose failed operations exceed its workload's max_error_rate fails
// (results.Gate), its figures kept beside the verdict.
func (s *Sweeper) measure(ctx context.Context, c plan.Cell, dir string, res *results.Cell) error {
	ar := s.agentRun(c, 0)
	ar.LogDir = filepath.Join(dir, rundir.AgentsDir)
	m, err := runAgents(ctx, s.opts.Agents, ar)
	s.telemetryIdle()
	if m != nil {
		cell := results.Summarise(m.Recording, m.Duration)
		cell.ID, cell.Variant, cell.Workload, cell.Repeat, cell.PerSecond = c.ID, c.Variant.Name, c.Workload.Name, c.Repeat, m.PerSecond
		cell.Params = c.Workload.Params()
		cell.Status = "ok"
		var ferr error
		if ar.Fill != nil {
			cell.Fill, ferr = results.SummariseFill(*ar.Fill, m.Fill)
		}
		switch {
		case ctx.Err() != nil:
			cell.Status = "interrupted"
		case err != nil:
			cell.Status = "failed"
		case cell.Total.Count == 0:
			cell.Status = "failed"
			err = fmt.Errorf("no operation succeeded (%d errors: %v)", cell.Total.Errors, cell.Total.ErrorsBy)
		case ferr != nil:
			cell.Status, err = "failed", ferr
		default:
			if g := results.Gate(&cell, s.tb.ErrorGate(c.Workload)); g != nil {
				err = g
			}
		}
		*res = cell
	}
	if werr := s.run.WriteCell(c.ID, res); werr != nil && err == nil {
		err = werr
	}
	return err
}

// readCell reads a finished cell's result.
func (s *Sweeper) readCell(c plan.Cell) (results.Cell, error) { return s.run.ReadCell(c.ID) }

// saveLog keeps the last lines of service's log on host in the cell's
// logs/ directory, secrets and auth tokens masked.
func (s *Sweeper) saveLog(ctx context.Context, host string, svc *plan.Service, dir string) error {
	res, err := s.p.Run(context.WithoutCancel(ctx), host, swiftDaemon(svc, nil).logTailScript(50)+"; true")
	if err != nil {
		return err
	}
	p := filepath.Join(dir, rundir.LogsDir, rundir.LogFile(host, svc.Name))
	return rundir.WriteFileAtomic(p, []byte(s.tb.Mask(string(res.Stdout))), 0o640)
}
