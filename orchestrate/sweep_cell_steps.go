package orchestrate

import (
	"context"

	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/plan/schedule"
	"benchbed/results"
)

// cellExec is one cell being run: what its steps share.
type cellExec struct {
	s   *Sweeper
	c   plan.Cell
	dir string            // the cell's directory in the run
	r   *render.Rendering // the cell's variant's confs and ring layout
	rs  *restarts         // what the restart step restarts
	res *results.Cell
	// skip are the kinds with nothing to change that need no check of
	// the hosts (unchangedKinds).
	skip map[string]bool
}

// unchangedKinds returns the ring-ports and push-conf kinds that steps mark
// unchanged, when trusted (the hosts hold the previous cell's variant as
// its steps left them): comparing the rings and confs again would find
// nothing, and costs seconds per cell. Untrusted (the first cell, or after
// a cell whose changes failed), every step checks the hosts.
func unchangedKinds(steps []schedule.Step, trusted bool) map[string]bool {
	skip := map[string]bool{}
	if !trusted {
		return skip
	}
	for _, kind := range []string{schedule.StepRingPorts, schedule.StepPushConf} {
		all := false
		for _, st := range steps {
			if st.Kind == kind {
				all = st.Unchanged
				if !all {
					break
				}
			}
		}
		skip[kind] = all
	}
	return skip
}

// unchanged is a step that has nothing to do: the journal still names it.
func (ex *cellExec) unchanged(kind string) func(context.Context) error {
	return func(context.Context) error {
		ex.s.logf("  %s: unchanged since the last cell", kind)
		return nil
	}
}

// planRestarts marks the services the schedule restarts (every one in the
// first cell); the ring and conf steps add what they find changed on the
// hosts.
func (ex *cellExec) planRestarts(steps []schedule.Step) {
	for _, st := range steps {
		if st.Kind != schedule.StepRestart || st.Unchanged {
			continue
		}
		for _, h := range st.Hosts {
			ex.rs.add(h, st.Service)
		}
	}
}

// step returns what runs a kind of cell step (nil: none).
func (ex *cellExec) step(kind string) func(context.Context) error {
	s := ex.s
	if ex.skip[kind] {
		return ex.unchanged(kind)
	}
	switch kind {
	case schedule.StepRecord:
		return func(context.Context) error { return s.recordCell(ex.c.ID, ex.dir, ex.r) }
	case schedule.StepRingPorts:
		return func(ctx context.Context) error {
			s.settled, s.configured = false, nil
			return s.switchRings(ctx, ex.c.Variant, ex.rs)
		}
	case schedule.StepPushConf:
		return func(ctx context.Context) error {
			s.settled, s.configured = false, nil
			return s.pushConfs(ctx, ex.r, ex.rs)
		}
	case schedule.StepRestart:
		return func(ctx context.Context) error {
			s.configured = nil
			err := s.keepLogsOnError(ctx, ex.dir, s.restartSettled(ctx, ex.r, ex.rs))
			if err == nil {
				s.configured = ex.c.Variant
			}
			return err
		}
	case schedule.StepHealth:
		return func(ctx context.Context) error { return s.health(ctx, ex.r, ex.dir) }
	case schedule.StepTelemetryStart:
		return func(ctx context.Context) error { return s.startCellTelemetry(ctx, ex.c) }
	case schedule.StepWarmup:
		return func(ctx context.Context) error { return s.warmup(ctx, ex.c) }
	case schedule.StepServices:
		return func(ctx context.Context) error { return s.runGeneric(ctx, ex.c.Variant) }
	case schedule.StepDropCaches:
		return s.dropCaches
	case schedule.StepRun:
		return func(ctx context.Context) error { return s.measureCell(ctx, ex.c, ex.dir, ex.res) }
	case schedule.StepTelemetry:
		return func(context.Context) error { return s.finishCellTelemetry(ex.c, ex.res) }
	}
	return nil
}
