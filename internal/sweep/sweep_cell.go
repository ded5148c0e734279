package sweep

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"benchbed/internal/cluster"
	"benchbed/internal/step"
	"benchbed/internal/sweep/summary"
	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/plan/schedule"
	"benchbed/results"
	"benchbed/results/rundir"
)

// cellResult is one cell of the matrix and its outcome.
type cellResult struct {
	cell plan.Cell
	res  results.Cell
}

// restarts is, per host, the services whose inputs changed in a cell.
type restarts struct {
	mu    sync.Mutex
	hosts map[string]map[string]bool
}

func (r *restarts) add(host, service string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.hosts == nil {
		r.hosts = map[string]map[string]bool{}
	}
	if r.hosts[host] == nil {
		r.hosts[host] = map[string]bool{}
	}
	r.hosts[host][service] = true
}

func (r *restarts) of(host string) map[string]bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hosts[host]
}

// selected reports whether --only lets cell c run.
func (s *Sweeper) selected(c plan.Cell) bool {
	return len(s.opts.Only) == 0 || slices.Contains(s.opts.Only, c.Variant.Name)
}

// runCells runs every selected cell in order, keeping those an earlier
// attempt finished; a failed cell stops the sweep when on_failure = stop.
// Then the rounds of repeat = "auto" (runRounds).
func (s *Sweeper) runCells(ctx context.Context) error {
	var prev *plan.Variant // the variant of the last cell run: what the hosts have
	for _, c := range plan.Expand(s.tb) {
		if err := s.runOne(ctx, c, &prev); err != nil {
			return err
		}
	}
	return summary.RunRounds(s.tb, s.summaryCells, s.selected, func(c plan.Cell) error { return s.runOne(ctx, c, &prev) }, s.logf)
}

// runOne runs cell c if selected (or keeps it); *prev: what the hosts hold.
func (s *Sweeper) runOne(ctx context.Context, c plan.Cell, prev **plan.Variant) error {
	if !s.selected(c) {
		return nil
	}
	if s.finished[c.ID] {
		if res, err := s.readCell(c); err == nil {
			s.logf("cell %s: kept from the interrupted run", c.ID)
			s.cells = append(s.cells, cellResult{cell: c, res: res})
			return nil
		}
	}
	s.logf("cell %s (%s)", c.ID, summary.CellLabel(s.tb, c))
	trusted := s.lab.holds(*prev)
	res, err := s.runCell(ctx, schedule.CellSteps(s.tb, *prev, c), trusted)
	*prev = c.Variant
	s.cells = append(s.cells, cellResult{cell: c, res: res})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		s.failed++
		s.logf("cell %s failed: %v", c.ID, err)
		if s.opts.OnFailure == "stop" {
			return fmt.Errorf("cell %s failed (on_failure = stop): %w", c.ID, err)
		}
	}
	return nil
}

// runCell brings the lab to the cell's variant and measures it, running
// the kinds of steps the schedule gives it in its order (the steps
// `benchbed plan` prints): record, ring ports, confs, restarts, health,
// warm-up, run. A failure is recorded in the cell's directory (error.txt)
// and the journal; a failed run keeps its telemetry. trusted: the hosts
// hold the previous cell's variant as its steps left them, so that a step
// the schedule marks unchanged need not check them again.
func (s *Sweeper) runCell(ctx context.Context, cp schedule.CellPlan, trusted bool) (results.Cell, error) {
	c := cp.Cell
	res := results.Cell{ID: c.ID, Variant: c.Variant.Name, Workload: c.Workload.Name, Repeat: c.Repeat, Status: results.StatusFailed}
	dir, err := s.run.CellDir(c.ID)
	if err != nil {
		return res, err
	}
	ex := &cellRun{inputs: s.inputs, s: s, lab: &s.lab, c: c, dir: dir, r: s.made.rend[c.Variant.Name], rs: &restarts{}, res: &res}
	ex.planRestarts(cp.Steps)
	ex.skip = unchangedKinds(cp.Steps, trusted)
	s.lab.begin()
	r := s.cellRunner(c.ID)
	ex.plan, ex.runner = cp.Steps, r
	// First on the stack, so the last undo: what the cell started ahead
	// and no step took.
	r.Push(step.Step{Name: "ahead", Undo: func(context.Context) error { ex.endAhead(); return nil }})
	ex.beginAhead(ctx, schedule.Kinds(cp.Steps))
	defer func() {
		// The cell's undos run as it ends, whatever its outcome; one that
		// fails is said (the journal lists the plan's steps only).
		if err := r.Unwind(context.WithoutCancel(ctx)); err != nil {
			s.logf("cell %s: %v", c.ID, err)
		}
	}()
	var se *step.Error
	if err := r.Run(ctx, ex.steps(schedule.Kinds(cp.Steps))); errors.As(err, &se) {
		res.Status = cellStatus(ctx, err)
		res.Error = s.tb.Mask(fmt.Sprintf("%s: %v", se.Step, se.Err))
		if k := schedule.Kind(se.Step); k == schedule.StepRun || k == schedule.StepSearch {
			_ = ex.finishTelemetry(ctx) // what the hosts did in a run that failed
		}
		_ = s.run.WriteCellError(c.ID, res.Error)
		return res, fmt.Errorf("%s: %w", se.Step, se.Err)
	}
	return res, nil
}

// recordCell keeps the cell's confs (secrets masked) and ring layout, as
// text for people and as data for compare.
func (s *Sweeper) recordCell(id, dir string, r *render.Rendering) error {
	if _, err := r.WriteMasked(filepath.Join(dir, rundir.ConfsDir), s.tb.Secrets()); err != nil {
		return err
	}
	if err := rundir.WriteFileAtomic(filepath.Join(dir, rundir.RingPortsFile), []byte(render.LayoutText(r.Layout)), 0o640); err != nil {
		return err
	}
	return s.run.WriteRingLayout(id, ringLayoutData(r.Layout))
}

// ringLayoutData is a variant's ring layout as the run directory keeps it.
func ringLayoutData(l *plan.Layout) *rundir.RingLayout {
	out := &rundir.RingLayout{Variant: l.Variant}
	for _, rl := range l.Rings {
		r := rundir.Ring{Name: rl.Ring.Name, PartPower: rl.Ring.PartPower, Replicas: rl.Ring.Replicas, Mode: rl.Mode()}
		for _, d := range rl.Devices {
			r.Devices = append(r.Devices, rundir.RingDevice{Host: d.Host, IP: d.IP, Device: d.Name, Port: d.Port, Weight: d.Weight})
		}
		out.Rings = append(out.Rings, r)
	}
	return out
}

// pushConfs places every host's confs for the cell; only files whose
// content differs are written, and their services marked for restart.
func (s *Sweeper) pushConfs(ctx context.Context, r *render.Rendering, rs *restarts) error {
	rep := cluster.NewReport(cluster.Names(s.tb.Hosts))
	err := s.p.FanOut(ctx, cluster.Names(cluster.ServiceHosts(s.tb)), func(ctx context.Context, host string) error {
		written, err := cluster.PushConfs(ctx, s.p, r, host, rep)
		changed, all := cluster.ChangedServices(s.tb, s.tb.Host(host), written)
		for svc := range changed {
			rs.add(host, svc)
		}
		if all {
			for _, svc := range cluster.HostServices(s.tb, s.tb.Host(host)) {
				rs.add(host, svc.Name)
			}
		}
		return err
	}).Err()
	s.logChanges(rep)
	return err
}

// logChanges logs what a report says changed.
func (s *Sweeper) logChanges(rep *cluster.Report) {
	for _, h := range s.tb.Hosts {
		for _, c := range rep.Changes(h.Name) {
			s.logf("  %s: %s", h.Name, c)
		}
	}
}

// health waits for every server of the cell's rendering; a server that
// does not answer in time, or stops, fails the cell with its last log
// lines saved in the cell's logs/ directory.
func (s *Sweeper) health(ctx context.Context, r *render.Rendering, dir string) error {
	return s.keepLogsOnError(ctx, dir, cluster.WaitAllHealthy(ctx, s.tb, s.p, r, cluster.Names(cluster.ServiceHosts(s.tb)), s.opts.HealthTimeout))
}

// keepLogsOnError saves the end of every service's log in the cell's
// logs/ directory when err (a restart or health failure) is not nil.
func (s *Sweeper) keepLogsOnError(ctx context.Context, dir string, err error) error {
	if err == nil || ctx.Err() != nil {
		return err
	}
	var errs []error
	for _, h := range cluster.ServiceHosts(s.tb) {
		for _, svc := range cluster.HostServices(s.tb, h) {
			errs = append(errs, s.saveLog(ctx, h.Name, svc, dir))
		}
	}
	return errors.Join(append([]error{err}, errs...)...)
}
