package step

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// UndoPrefix starts the journal name of an undo: "undo-" and its step's
// name (schedule.StepUndoLock, schedule.StepUndoBackup).
const UndoPrefix = "undo-"

// Unwind runs the undos, last first, each one even when an earlier one
// failed, journaling each as UndoPrefix and its step's name (unless
// QuietUndo). Under a cancelled ctx the undos still run, and fail: Left
// names them.
func (r *Runner) Unwind(ctx context.Context) error {
	var errs []error
	for {
		r.mu.Lock()
		n := len(r.undos)
		if n == 0 {
			r.mu.Unlock()
			return errors.Join(errs...)
		}
		st := r.undos[n-1]
		r.mu.Unlock()
		var err error
		if r.QuietUndo {
			err = st.Undo(ctx)
		} else {
			err = r.Record(ctx, UndoPrefix+st.Name, "", st.Undo)
		}
		r.mu.Lock()
		r.undos = r.undos[:n-1]
		if err != nil {
			r.failed = append(r.failed, st.Name)
		}
		r.mu.Unlock()
		if err != nil {
			errs = append(errs, fmt.Errorf("undo %s: %w", st.Name, err))
		}
	}
}

// Take removes from the stack the undo last pushed of a step that match
// accepts, for its caller to run now (a fault's undo at its time, the
// telemetry agents stopped once the run is summarised): an undo is
// reachable one way, from the stack. ok is false when none is there (its
// step never ran, or its undo was taken already). An undo taken that
// fails goes back on the stack (Push) for Unwind to try again.
func (r *Runner) Take(match func(Step) bool) (st Step, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, u := range slices.Backward(r.undos) {
		if match(u) {
			r.undos = slices.Delete(r.undos, i, i+1)
			return u, true
		}
	}
	return Step{}, false
}

// Left names the steps whose undo is not done: those whose undo ran and
// failed, in the order they ran, and those whose undo has not run, in the
// order Unwind would run them.
func (r *Runner) Left() (failed, pending []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, st := range slices.Backward(r.undos) {
		pending = append(pending, st.Name)
	}
	return slices.Clone(r.failed), pending
}
