package sweep

import (
	"context"
	"slices"
	"sync/atomic"

	"benchbed/internal/agents"
	"benchbed/plan/schedule"
	"benchbed/results"
)

// ahead is work a cell starts before the step that needs it, so that it
// overlaps what the cell waits for: as the cell begins, the warm-up's load
// agents (or the run's, without a warm-up) and the telemetry agents, while
// the rings and confs change and the servers restart and answer health
// (the telemetry agents find the services' processes anew at every
// sample); its confs while its rings switch (startConfs); the run's load
// agents during the warm-up, a search's next probe's during each probe.
// The step that needs it takes its outcome; what no step took (a cell that
// failed before; the search's after its last probe) is stopped as it ends.
type ahead[T any] struct {
	done chan struct{}
	v    T
	err  error
	took bool
}

// startAhead runs fn in the background.
func startAhead[T any](fn func() (T, error)) *ahead[T] {
	a := &ahead[T]{done: make(chan struct{})}
	go func() {
		defer close(a.done)
		a.v, a.err = fn()
	}()
	return a
}

// take waits for the outcome and hands it over (nil: nothing was started).
func (a *ahead[T]) take() (T, error) {
	if a == nil {
		var zero T
		return zero, nil
	}
	<-a.done
	a.took = true
	return a.v, a.err
}

// drop waits for the work and stops its outcome when no step took it.
func (a *ahead[T]) drop(stop func(T) error) {
	if a == nil {
		return
	}
	<-a.done
	if !a.took && a.err == nil {
		_ = stop(a.v)
	}
}

// cellAhead is a cell's work started ahead.
type cellAhead struct {
	warmup *ahead[*agents.Prepared]
	run    atomic.Pointer[ahead[*agents.Prepared]] // set by the warm-up and each probe while the cell's end may read it
	tele   *ahead[*agents.Telemetry]
	confs  *ahead[struct{}] // the push-conf step's, beside the ring switch
}

// usesAgents reports whether the cell's step kind (warm-up or run) runs
// the load agents: a command workload has none, nor a warm-up of 0 s; a
// search's probes are its run.
func (ex *cellRun) usesAgents(kinds []schedule.Kind, kind schedule.Kind) bool {
	if kind == schedule.StepRun && slices.Contains(kinds, schedule.StepSearch) {
		kind = schedule.StepSearch
	}
	if ex.c.Workload.IsCommand() || !slices.Contains(kinds, kind) {
		return false
	}
	return kind != schedule.StepWarmup || schedule.WarmupOf(ex.tb, ex.c.Workload) > 0
}

// beginAhead starts, as the cell begins, its first load run's agents and
// its telemetry agents.
func (ex *cellRun) beginAhead(ctx context.Context, kinds []schedule.Kind) {
	switch {
	case ex.usesAgents(kinds, schedule.StepWarmup):
		ex.ahead.warmup = ex.prepareAgents(ctx, schedule.WarmupOf(ex.tb, ex.c.Workload) > 0)
	case ex.usesAgents(kinds, schedule.StepRun):
		ex.ahead.run.Store(ex.prepareAgents(ctx, false))
	}
	ex.wantTelemetry = slices.Contains(kinds, schedule.StepTelemetryStart)
	ex.wantRun = ex.usesAgents(kinds, schedule.StepRun)
	ex.aheadTelemetry(ctx)
	if schedule.ConfsAhead(kinds, ex.skip) {
		ex.startConfs(ctx)
	}
}

// prepareAgents prepares the agents of the cell's warm-up or run.
func (ex *cellRun) prepareAgents(ctx context.Context, warmup bool) *ahead[*agents.Prepared] {
	job := ex.s.agentRun(ex.c, 0, &cellTelemetry{})
	if warmup {
		job = ex.s.agentRun(ex.c, schedule.WarmupOf(ex.tb, ex.c.Workload), &cellTelemetry{})
	}
	return startAhead(func() (*agents.Prepared, error) { return agents.Prepare(ctx, ex.opts.Agents, job) })
}

// endAhead stops what the cell started ahead and no step took.
func (ex *cellRun) endAhead() {
	ex.ahead.warmup.drop((*agents.Prepared).Close)
	ex.ahead.run.Load().drop((*agents.Prepared).Close)
	ex.ahead.tele.drop((*agents.Telemetry).Stop)
	ex.ahead.confs.drop(func(struct{}) error { return nil })
}

// runLoad runs job on the agents prepared ahead (a), or prepares them
// now; next (a search's probe): as it runs, the next probe's agents start
// on the same clients (agents.Prepared.Again), for it to take. The
// observer's phase ends with the agents' merged result (agents.Observe).
func (ex *cellRun) runLoad(ctx context.Context, a *ahead[*agents.Prepared], job agents.Job, next bool, phase string) (m *results.Merged, err error) {
	end := agents.Observe(ex.opts.Observer, &job, ex.c, ex.run.ID, ex.tb.Name, phase, ex.faults != nil, ex.tele.agents)
	defer func() { end(m) }()
	p, err := a.take()
	if a == nil {
		p, err = agents.Prepare(ctx, ex.opts.Agents, job)
	}
	if err != nil {
		return nil, err
	}
	if next {
		ex.ahead.run.Store(startAhead(func() (*agents.Prepared, error) { return p.Again(ctx, ex.opts.Agents) }))
	}
	return p.Run(ctx, job)
}

// warmup runs the cell's workload for the sweep's warm-up, unmeasured, on
// the agents prepared as the cell began, and prepares the run's agents
// meanwhile; a command workload has none (its before commands prepare its
// run).
func (ex *cellRun) warmup(ctx context.Context) error {
	s, c := ex.s, ex.c
	d := schedule.WarmupOf(s.tb, c.Workload)
	if d <= 0 || c.Workload.IsCommand() {
		return nil
	}
	if ex.wantRun {
		ex.ahead.run.Store(ex.prepareAgents(ctx, false))
	}
	ar := s.agentRun(c, d, &ex.tele)
	why := func() string { return "" }
	if w := c.Workload.Warmup; w != nil && w.Auto {
		why = agents.SteadyWarmup(&ar)
	}
	_, err := ex.runLoad(ctx, ex.ahead.warmup, ar, false, agents.PhaseWarmup)
	ex.tele.idle()
	if w := why(); w != "" && err == nil {
		ex.tele.warmedUp = w
		s.logf("  warm-up: %s", w)
	}
	return err
}

// runAgents runs the measured job on the agents prepared ahead.
func (ex *cellRun) runAgents(ctx context.Context, job agents.Job) (*results.Merged, error) {
	return ex.runLoad(ctx, ex.ahead.run.Load(), job, false, agents.PhaseRun)
}

// aheadTelemetry starts the cell's telemetry agents in the background, for
// its telemetry-start step to take. Their samples before the warm-up are
// idle ones, as those between the telemetry-start step and it were.
func (ex *cellRun) aheadTelemetry(ctx context.Context) {
	if !ex.wantTelemetry || ex.ahead.tele != nil || !ex.tb.Telemetry.Enabled {
		return
	}
	th, ok := ex.opts.Agents.(agents.TelemetryHosts)
	if !ok {
		return
	}
	ex.ahead.tele = startAhead(func() (*agents.Telemetry, error) { return ex.launchTelemetry(ctx, th) })
}

// startConfs pushes the cell's confs in the background, for its push-conf step to take.
func (ex *cellRun) startConfs(ctx context.Context) {
	ex.lab.changing()
	ex.ahead.confs = startAhead(func() (struct{}, error) { return struct{}{}, ex.s.pushConfs(ctx, ex.r, ex.rs) })
}

// pushConfStep takes the confs pushed ahead, or pushes them.
func (ex *cellRun) pushConfStep(ctx context.Context) error {
	if ex.ahead.confs == nil {
		ex.startConfs(ctx)
	}
	_, err := ex.ahead.confs.take()
	return err
}
