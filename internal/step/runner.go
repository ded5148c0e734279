package step

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"benchbed/results/rundir"
)

// Journal keeps a run's step records; *rundir.Journal is one.
type Journal interface {
	Add(rundir.Entry) error
}

// Runner executes lists of steps. It journals each step's start and outcome
// (rundir.Entry: the step's name, Cell, StepStarted, then StepOK with the
// seconds it took or StepFailed with its masked error) and keeps the undo
// stack: every step's Undo, pushed before the step runs, waits there until
// Unwind. Its zero value runs steps without a journal.
type Runner struct {
	Journal Journal                       // nil: nothing is journaled (setup)
	Cell    string                        // journaled with every step ("" = run-wide)
	Mask    func(string) string           // hides secrets in journaled errors (nil: none)
	Log     func(format string, a ...any) // warnings, e.g. a journal that cannot be written (nil: none)
	Begin   func(name string)             // called as each step of a list begins (nil: none)
	// Failed is called with each step's error as it fails (nil: none): the
	// sweep logs the whole scripts and output behind it to the run directory.
	Failed func(name, host string, err error)
	// QuietUndo runs the undos without journaling them: a cell's, whose
	// journal lists exactly the plan's steps.
	QuietUndo bool

	mu     sync.Mutex
	quiet  bool     // within RunAsOne: no step journaled
	undos  []Step   // a stack: the last pushed runs first
	failed []string // the undos that ran and failed, in the order they ran
}

// Run runs steps in order, each pushing its Undo first, and stops at the
// first that fails, returning its *Error (with those of the steps Later
// before it). The undos wait for Unwind.
func (r *Runner) Run(ctx context.Context, steps []Step) error {
	var later []error
	for _, st := range steps {
		if r.Begin != nil {
			r.Begin(st.Name)
		}
		if st.Undo != nil {
			r.Push(st)
		}
		err := r.record(ctx, st.Name, "", st.Detail, st.Run)
		switch {
		case err != nil && st.Later:
			later = append(later, &Error{Step: st.Name, Err: err})
		case err != nil:
			return errors.Join(append(later, &Error{Step: st.Name, Err: err})...)
		}
	}
	return errors.Join(later...)
}

// RunAsOne runs steps (Run), then their undos (Unwind), journaled as one
// step, name (detail with its start): a scope whose own steps the journal
// does not list, as `benchbed restore`. What Add journals meanwhile is
// journaled.
func (r *Runner) RunAsOne(ctx context.Context, name, detail string, steps []Step) error {
	return r.record(ctx, name, "", detail, func(ctx context.Context) error {
		r.mu.Lock()
		r.quiet = true
		r.mu.Unlock()
		defer func() {
			r.mu.Lock()
			r.quiet = false
			r.mu.Unlock()
		}()
		return errors.Join(r.Run(ctx, steps), r.Unwind(ctx))
	})
}

// Push puts st's Undo on the stack (for a step run outside a list).
func (r *Runner) Push(st Step) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.undos = append(r.undos, st)
}

// Record runs fn as step name (on host, "" = none), journaling its start
// and outcome.
func (r *Runner) Record(ctx context.Context, name, host string, fn func(context.Context) error) error {
	return r.record(ctx, name, host, "", fn)
}

func (r *Runner) record(ctx context.Context, name, host, detail string, fn func(context.Context) error) error {
	r.mu.Lock()
	quiet := r.quiet
	r.mu.Unlock()
	if quiet {
		return fn(ctx)
	}
	r.Add(rundir.Entry{Step: name, Cell: r.Cell, Host: host, Status: rundir.StepStarted, Detail: detail})
	start := time.Now()
	err := fn(ctx)
	e := rundir.Entry{Step: name, Cell: r.Cell, Host: host, Status: rundir.StepOK,
		Detail: fmt.Sprintf("%.1f s", time.Since(start).Seconds())}
	if err != nil {
		e.Status, e.Detail = rundir.StepFailed, r.mask(err.Error())
		if r.Failed != nil {
			r.Failed(name, host, err)
		}
	}
	r.Add(e)
	return err
}

// Add journals e; a journal that cannot be written is logged, not fatal.
func (r *Runner) Add(e rundir.Entry) {
	if r.Journal == nil {
		return
	}
	if err := r.Journal.Add(e); err != nil && r.Log != nil {
		r.Log("warning: %v", err)
	}
}

func (r *Runner) mask(s string) string {
	if r.Mask == nil {
		return s
	}
	return r.Mask(s)
}
