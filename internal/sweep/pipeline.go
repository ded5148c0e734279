package sweep

import (
	"context"
	"slices"

	"benchbed/internal/step"
	"benchbed/plan/schedule"
)

// This file is what `benchbed sweep` runs, in order: the run-wide steps,
// then each cell's. Each line is a step's kind (the name `benchbed plan`
// prints and the journal records) and its implementation, with its undo
// when it changes the hosts in a way that must not outlast the run. A
// step runs when the schedule gives its kind (plan/schedule: Before,
// CellSteps), in this order; TestPipelineImplementsTheSchedule holds this
// list and the schedule's declared kinds (schedule.RunWide, PerCell) the
// same, so a kind without an implementation fails a unit test.

// runWide are the run-wide steps, on the sweep's runner; their undos
// unwind, last first, when the sweep ends, fails or is interrupted,
// journaled as "undo-" and the step's name (undo-backup, then undo-lock).
// A step that hands something on returns it, and its line says where it
// is kept (into): render returns the testbed with the cluster's secrets,
// every variant's rendering and the ring files (Sweeper.made.rendered);
// backup the originals its undo puts back (Sweeper.made.backup), keeping
// the lock of a host it cannot (custody.Locks.Keep); cells each cell's
// result, as it ends (Sweeper.cells), for the summary.
var runWide = []wideStep{
	{schedule.StepPreflight, (*Sweeper).preflight, nil},                                              // every host reachable, the commands there (sweep_prepare.go)
	{schedule.StepPreconditions, (*Sweeper).preconditions, nil},                                      // workloads' initial objects listed (sweep_prefill.go)
	{schedule.StepLock, (*Sweeper).lock, (*Sweeper).unlock},                                          // the sweep lock on every host (sweep_backup.go)
	{schedule.StepEnvironment, (*Sweeper).captureEnv, nil},                                           // each host's kernel, CPU, disks, versions (sweep_prepare.go)
	{schedule.StepRender, into((*Sweeper).render, (*Sweeper).keepRendered), nil},                     // every variant's confs and rings (sweep_prepare.go)
	{schedule.StepBackup, into((*Sweeper).takeBackup, (*Sweeper).keepBackup), (*Sweeper).restoreAll}, // the originals copied; undo: put back (sweep_backup.go)
	{schedule.StepPrefill, (*Sweeper).prefill, nil},                                                  // the workloads' initial objects (sweep_prefill.go)
	{schedule.StepCells, (*Sweeper).runCells, nil},                                                   // every cell, each on the cell steps below (sweep_cell.go)
}

// perCell are a cell's steps, on the cell's runner (cellRunner: its undos
// run as the cell ends, the last what the cell started ahead and no step
// took; the journal lists the plan's steps only). They read the sweep's
// inputs (a copy in cellRun) and hand on within the cell through cellRun:
// the restarts the conf and ring steps mark, telemetry-start's agents,
// fault-probe's faults. Its
// phases (warmup; run or search; within the run, fault-apply and
// fault-undo as each fault's window opens and closes) all begin on that
// runner, whose Begin sees each.
var perCell = []cellStep{
	{schedule.StepRecord, (*cellRun).record, nil},                                      // confs and ring layout kept in the run (sweep_cell_steps.go)
	{schedule.StepRingPorts, (*cellRun).ringPorts, nil},                                // rings switched to the variant's ports (sweep_cell_steps.go)
	{schedule.StepPushConf, (*cellRun).pushConfStep, nil},                              // confs written where they differ (sweep_ahead.go)
	{schedule.StepRestart, (*cellRun).restart, nil},                                    // changed services restarted (sweep_cell_steps.go)
	{schedule.StepReload, (*cellRun).reload, nil},                                      // or reloaded in place (sweep_cell_steps.go)
	{schedule.StepHealth, (*cellRun).health, nil},                                      // every server answers (sweep_cell_steps.go)
	{schedule.StepServices, (*cellRun).services, nil},                                  // generic services (sweep_cell_steps.go)
	{schedule.StepFaultProbe, (*cellRun).faultProbe, nil},                              // each fault's hosts can apply it (sweep_fault.go)
	{schedule.StepTelemetryStart, (*cellRun).startTelemetry, (*cellRun).stopTelemetry}, // telemetry agents (sweep_telemetry.go)
	{schedule.StepWarmup, (*cellRun).warmup, nil},                                      // unmeasured load (sweep_ahead.go)
	{schedule.StepDropCaches, (*cellRun).dropCaches, nil},                              // object hosts' page caches emptied (sweep_telemetry.go)
	{schedule.StepRun, (*cellRun).runStep, nil},                                        // the measured run (sweep_fault_run.go)
	{schedule.StepSearch, (*cellRun).search, nil},                                      // or a capacity search's probes (sweep_search.go)
	{schedule.StepFaultApply, nil, nil},                                                // during the run, on its timer (faultCell.applyStep)
	{schedule.StepFaultUndo, nil, nil},                                                 // during or after the run (faultCell.undoStep)
	{schedule.StepFaultCheck, (*cellRun).faultCheck, nil},                              // every fault undone, servers healthy (sweep_fault.go)
	{schedule.StepTelemetry, (*cellRun).telemetry, nil},                                // agents stopped, samples summarised (sweep_telemetry.go)
}

// cellRunner is the runner of cell id's steps, journaled with the cell's
// id, its undos quiet. Begin is where a cell's phases can be observed: it
// is called as each step of the cell begins (perCell's, and the run's
// fault-apply and fault-undo as they act).
func (s *Sweeper) cellRunner(id string) *step.Runner {
	return &step.Runner{Journal: s.steps.Journal, Cell: id, Mask: s.Mask, Log: s.logf, QuietUndo: true, Failed: s.failedStep(id)}
}

// wideStep is a run-wide step: its kind, what it does and its undo.
type wideStep struct {
	kind      schedule.Kind
	run, undo func(*Sweeper, context.Context) error
}

// into makes a run-wide step of run, which returns what it hands on: keep
// keeps it where later steps read it, also with an error (a partial
// backup is what its undo puts back; keep ignores what a failed render
// returns).
func into[T any](run func(*Sweeper, context.Context) (T, error), keep func(*Sweeper, T)) func(*Sweeper, context.Context) error {
	return func(s *Sweeper, ctx context.Context) error {
		v, err := run(s, ctx)
		keep(s, v)
		return err
	}
}

// cellStep is a cell's step: its kind, what it does and its undo; a nil
// run is carried out by the run step, on its timer.
type cellStep struct {
	kind      schedule.Kind
	run, undo func(*cellRun, context.Context) error
}

// wideSteps are the run-wide steps the schedule gives tb, in order.
func (s *Sweeper) wideSteps() []step.Step {
	kinds := schedule.Kinds(schedule.Before(s.tb))
	var out []step.Step
	for _, ws := range runWide {
		if ws.kind != schedule.StepCells && !slices.Contains(kinds, ws.kind) {
			continue
		}
		st := step.Step{Name: string(ws.kind), Run: func(ctx context.Context) error { return ws.run(s, ctx) }}
		if ws.undo != nil {
			st.Undo = func(ctx context.Context) error { return ws.undo(s, ctx) }
		}
		out = append(out, st)
	}
	return out
}

// steps are the cell's steps of kinds (the schedule's), in order; a kind
// with nothing to change and no need to check the hosts (ex.skip) is
// journaled all the same.
func (ex *cellRun) steps(kinds []schedule.Kind) []step.Step {
	var out []step.Step
	for _, cs := range perCell {
		switch {
		case cs.run == nil || !slices.Contains(kinds, cs.kind):
		case ex.skip[cs.kind]:
			out = append(out, step.Step{Name: string(cs.kind), Run: ex.unchanged(cs.kind)})
		default:
			st := step.Step{Name: string(cs.kind), Run: func(ctx context.Context) error { return cs.run(ex, ctx) }}
			if cs.undo != nil {
				st.Undo = func(ctx context.Context) error { return cs.undo(ex, ctx) }
			}
			out = append(out, st)
		}
	}
	return out
}
