package sweep

import (
	"context"

	"benchbed/internal/cluster"
	"benchbed/internal/step"
	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/plan/schedule"
	"benchbed/results"
)

// cellRun is one cell being run: the typed state its steps share, passed
// to each. The run-wide context (testbed, pool, run directory, options) is
// the sweeper's; what the hosts run across cells is lab; the rest lasts the
// cell.
type cellRun struct {
	inputs           // the sweep's, as the cell began
	s      *Sweeper  // the sweep's per-host helpers (pushConfs, health, measureCell, ...)
	lab    *labState // what the hosts run; the ring, conf and restart steps change it
	c      plan.Cell
	dir    string            // the cell's directory in the run
	r      *render.Rendering // the cell's variant's confs and ring layout
	rs     *restarts         // what the restart step restarts
	res    *results.Cell
	// skip are the kinds with nothing to change that need no check of
	// the hosts (unchangedKinds).
	skip map[schedule.Kind]bool
	tele cellTelemetry // the telemetry-start step's agents, drop-caches' outcome
	// ahead is the work started before the steps that take it
	// (sweep_ahead.go); wantTelemetry and wantRun say whether the cell
	// has a telemetry-start step and a run on the load agents.
	ahead                  cellAhead
	wantTelemetry, wantRun bool
	// plan are the schedule's steps of the cell, runner the cell's runner
	// (the fault steps journal and push their undos on it while the run
	// lasts), faults the fault-probe step's faults (nil: none).
	plan   []schedule.Step
	runner *step.Runner
	faults *faultCell
}

// record keeps the cell's confs and ring layout in the run.
func (ex *cellRun) record(context.Context) error { return ex.s.recordCell(ex.c.ID, ex.dir, ex.r) }

// ringPorts switches the rings to the cell's variant's ports.
func (ex *cellRun) ringPorts(ctx context.Context) error {
	ex.lab.changing()
	return ex.s.switchRings(ctx, ex.c.Variant, ex.rs)
}

// health waits for every server of the cell's variant.
func (ex *cellRun) health(ctx context.Context) error { return ex.s.health(ctx, ex.r, ex.dir) }

// services brings the generic services to the cell's variant.
func (ex *cellRun) services(ctx context.Context) error { return ex.s.runGeneric(ctx, ex.c.Variant) }

// telemetry is the telemetry step (finishTelemetry).
func (ex *cellRun) telemetry(ctx context.Context) error { return ex.finishTelemetry(ctx) }

// restart restarts the services whose inputs changed (bringServices).
func (ex *cellRun) restart(ctx context.Context) error { return ex.bringServices(ctx, false) }

// reload reloads them in place (bringServices).
func (ex *cellRun) reload(ctx context.Context) error { return ex.bringServices(ctx, true) }

// bringServices is the restart step (reload: the reload step,
// cluster.BringServices); once it succeeds the hosts hold the cell's
// variant.
func (ex *cellRun) bringServices(ctx context.Context, reload bool) error {
	ex.lab.restarting()
	rep := cluster.NewReport(cluster.Names(ex.tb.Hosts))
	err := cluster.BringServices(ctx, ex.p, ex.tb, ex.r, ex.rs.of, reload, rep)
	ex.s.logChanges(rep)
	ex.lab.restarted(ex.c.Variant, err, ex.opts.Resume != "")
	return ex.s.keepLogsOnError(ctx, ex.dir, err)
}

// unchangedKinds returns the ring-ports and push-conf kinds that steps mark
// unchanged, when trusted (the hosts hold the previous cell's variant as
// its steps left them): comparing the rings and confs again would find
// nothing, and costs seconds per cell. Untrusted (the first cell, or after
// a cell whose changes failed), every step checks the hosts.
func unchangedKinds(steps []schedule.Step, trusted bool) map[schedule.Kind]bool {
	skip := map[schedule.Kind]bool{}
	if !trusted {
		return skip
	}
	for _, kind := range []schedule.Kind{schedule.StepRingPorts, schedule.StepPushConf} {
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
func (ex *cellRun) unchanged(kind schedule.Kind) func(context.Context) error {
	return func(context.Context) error {
		ex.s.logf("  %s: unchanged since the last cell", kind)
		return nil
	}
}

// planRestarts marks the services the schedule restarts (every one in the
// first cell); the ring and conf steps add what they find changed on the
// hosts.
func (ex *cellRun) planRestarts(steps []schedule.Step) {
	for _, st := range steps {
		if (st.Kind != schedule.StepRestart && st.Kind != schedule.StepReload) || st.Unchanged {
			continue
		}
		for _, h := range st.Hosts {
			ex.rs.add(h, st.Service)
		}
	}
}
