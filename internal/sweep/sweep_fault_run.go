package sweep

import (
	"context"
	"errors"
	"sync"
	"time"

	"benchbed/internal/agents"
	"benchbed/internal/step"
	"benchbed/plan/schedule"
	"benchbed/results"
	"benchbed/results/rundir"
)

// runStep is the run step: the measured run, and in a fault cell its
// faults applied and undone on a timer from the agents' shared start; a
// fault whose undo is due at the run's end (for = "end", or a run that
// ended early) is undone once the agents return. A fault cell's result
// holds its phases and is gated phase by phase.
func (ex *cellRun) runStep(ctx context.Context) error {
	fc := ex.faults
	if fc == nil {
		return ex.s.measureCell(ctx, ex.c, ex.dir, ex.res, &ex.tele, ex.runAgents)
	}
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	started := make(chan time.Time, 1)
	stop := make(chan struct{})
	var ferr error
	var wg sync.WaitGroup
	wg.Go(func() { ferr = fc.timeline(rctx, started, stop, cancel) })
	ex.tele.runStarted = func(t time.Time) {
		select {
		case started <- t:
		default:
		}
	}
	if ex.c.Workload.IsCommand() { // no shared start: the run starts now
		ex.tele.runStarted(time.Now())
	}
	err := ex.s.measureCell(rctx, ex.c, ex.dir, ex.res, &ex.tele, ex.runAgents)
	ex.tele.runStarted = nil
	close(stop)
	wg.Wait()
	if ferr != nil {
		return ferr
	}
	if ctx.Err() != nil {
		return err // the pushed undos run as the cell unwinds
	}
	if ferr = fc.finish(ctx); ferr != nil {
		return ferr
	}
	if err != nil {
		return err
	}
	return ex.faultResult()
}

// timeline waits for the run's start, then runs each timed fault step at
// its time, until stop; an apply or undo that fails cancels the run.
func (fc *faultCell) timeline(ctx context.Context, started <-chan time.Time, stop <-chan struct{}, fail context.CancelCauseFunc) error {
	select {
	case fc.start = <-started:
	case <-stop:
		return nil
	case <-ctx.Done():
		return nil
	}
	for k := range fc.timed {
		a := &fc.timed[k]
		t := time.NewTimer(time.Until(fc.start.Add(a.at)))
		select {
		case <-t.C:
		case <-stop:
			t.Stop()
			return nil
		case <-ctx.Done():
			t.Stop()
			return nil
		}
		if err := fc.act(ctx, a); err != nil {
			fail(err)
			return err
		}
	}
	return nil
}

// act runs one timed step on the cell's runner: an apply's undo is
// pushed before it acts.
func (fc *faultCell) act(ctx context.Context, a *faultAction) error {
	a.done = true
	st := fc.undoStep(a)
	if a.kind == schedule.StepFaultApply {
		st = fc.applyStep(a)
	}
	defer agents.FaultPhase(fc.ex.opts.Observer, a.kind == schedule.StepFaultApply)
	return fc.ex.runner.Run(ctx, []step.Step{st})
}

// finish runs, once the agents returned, the undos not yet run of the
// faults applied (for = "end"); an apply whose time the run never reached
// is recorded as not applied.
func (fc *faultCell) finish(ctx context.Context) error {
	for k := range fc.timed {
		a := &fc.timed[k]
		if a.done {
			continue
		}
		applied := fc.applied(a.fault)
		if a.kind == schedule.StepFaultApply {
			fc.mu.Lock()
			fc.recs[a.fault].Error = "not applied: the run ended before its time"
			fc.mu.Unlock()
		}
		if a.kind == schedule.StepFaultUndo && applied {
			if err := fc.act(ctx, a); err != nil {
				return err
			}
		}
	}
	return fc.write()
}

// applied reports whether fault i's apply ran (its undo was pushed).
func (fc *faultCell) applied(i int) bool {
	for _, a := range fc.timed {
		if a.kind == schedule.StepFaultApply && a.fault == i && a.done {
			return true
		}
	}
	return false
}

// faultResult splits the cell's streams into its phases around the
// faults' window (faults.json), gates before and after by the workload's
// error gate and during by its max_fault_error_rate (when set), and
// writes the cell again.
func (ex *cellRun) faultResult() error {
	w := ex.c.Workload
	gate := ex.tb.ErrorGate(w)
	rr := &rundir.RunResults{Dir: ex.run.Dir}
	fp, err := rr.CellPhases(ex.res, results.RecoveryOptions{Gate: gate})
	if err != nil {
		return err
	}
	ex.res.Fault = fp
	var gerr error
	if fp != nil {
		if g := fp.Gate(gate, w.MaxFaultErrorRate); g != nil {
			ex.res.Status, ex.res.Error, gerr = results.StatusFailed, g.Error(), g
		}
	}
	return errors.Join(gerr, ex.run.WriteCell(ex.c.ID, ex.res))
}

// bothAt calls a then b (either may be nil).
func bothAt(a, b func(time.Time)) func(time.Time) {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return func(t time.Time) { a(t); b(t) }
}
