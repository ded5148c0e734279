package step

import (
	"context"
)

// Step is one named action of a run, with what undoes it.
//
// To add a step, write its Run, and its Undo when the step changes the hosts
// in a way that must not outlast the run (a lock taken, files to put back, a
// fault injected, a service stopped), in the same file, as functions of the
// typed state they share; give it a name (the plan's step kind when `benchbed
// plan` prints it, since the journal must follow the plan) and add it to the
// list its runner executes.
//
// The Runner pushes Undo BEFORE Run acts: a Run that fails half-way, or is
// interrupted, is undone all the same. So an Undo must cope with a Run that
// did nothing or only part of its work: it looks at what is there (a lock of
// its own run, a backup it took, a fault it set) and undoes only that. Undos
// run last first when the list ends, fails or is cancelled, each one even
// when an earlier one failed; those that fail, or never run, are what Left
// reports.
type Step struct {
	Name   string                      // the journal's step name
	Detail string                      // journaled with its start ("" = none)
	Run    func(context.Context) error // the action
	Undo   func(context.Context) error // nil: nothing to undo
	// Later: a failure does not stop the list; the steps after it run,
	// and Run returns its error at the list's end (`benchbed restore`'s
	// faults: the files go back all the same).
	Later bool
}

// Error is the failure of a list's step: it names the step, and reads as
// the step's own error.
type Error struct {
	Step string
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the step's error.
func (e *Error) Unwrap() error { return e.Err }
