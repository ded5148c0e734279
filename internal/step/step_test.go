package step

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"benchbed/results/rundir"
)

type memJournal struct{ es []rundir.Entry }

func (m *memJournal) Add(e rundir.Entry) error { m.es = append(m.es, e); return nil }

func (m *memJournal) lines() []string {
	var out []string
	for _, e := range m.es {
		out = append(out, e.Cell+"/"+e.Step+":"+e.Status)
	}
	return out
}

// TestRunUndoesAFailedStep: a step's undo is pushed before it acts, so the
// step that fails is undone too; undos run last first, and every step is
// journaled with its outcome.
func TestRunUndoesAFailedStep(t *testing.T) {
	j := &memJournal{}
	r := &Runner{Journal: j, Mask: func(s string) string { return strings.ReplaceAll(s, "secret", "***") }}
	var did []string
	act := func(name string, err error) func(context.Context) error {
		return func(context.Context) error { did = append(did, name); return err }
	}
	err := r.Run(context.Background(), []Step{
		{Name: "lock", Run: act("lock", nil), Undo: act("unlock", nil)},
		{Name: "check", Run: act("check", nil)},
		{Name: "break", Run: act("break", errors.New("half-way: secret")), Undo: act("mend", nil)},
		{Name: "never", Run: act("never", nil)},
	})
	var se *Error
	if !errors.As(err, &se) || se.Step != "break" || err.Error() != "half-way: secret" {
		t.Fatalf("err = %v, want the break step's own error", err)
	}
	if failed, pending := r.Left(); len(failed) != 0 || !slices.Equal(pending, []string{"break", "lock"}) {
		t.Fatalf("Left before unwinding = %v, %v", failed, pending)
	}
	if err := r.Unwind(context.Background()); err != nil {
		t.Fatal(err)
	}
	if want := []string{"lock", "check", "break", "mend", "unlock"}; !slices.Equal(did, want) {
		t.Fatalf("ran %v, want %v", did, want)
	}
	want := []string{"/lock:started", "/lock:ok", "/check:started", "/check:ok", "/break:started", "/break:failed",
		"/undo-break:started", "/undo-break:ok", "/undo-lock:started", "/undo-lock:ok"}
	if got := j.lines(); !slices.Equal(got, want) {
		t.Fatalf("journal %v, want %v", got, want)
	}
	if d := j.es[5].Detail; d != "half-way: ***" {
		t.Fatalf("failed step's detail %q, want it masked", d)
	}
}

// TestUnwindKeepsGoingAndLeftSaysWhat: an undo that fails does not stop the
// others and is reported by Left; a cell's runner journals its steps with the cell and not its undos.
func TestUnwindKeepsGoingAndLeftSaysWhat(t *testing.T) {
	j := &memJournal{}
	r := &Runner{Journal: j, Cell: "c1", QuietUndo: true}
	ran := 0
	ok := func(context.Context) error { ran++; return nil }
	bad := func(context.Context) error { ran++; return errors.New("host lost") }
	for _, st := range []Step{{Name: "a", Run: ok, Undo: ok}, {Name: "b", Run: ok, Undo: bad}, {Name: "c", Run: ok, Undo: ok}} {
		r.Push(st)
	}
	if err := r.Unwind(context.Background()); err == nil || !strings.Contains(err.Error(), "undo b: host lost") {
		t.Fatalf("unwind err %v", err)
	}
	if failed, pending := r.Left(); !slices.Equal(failed, []string{"b"}) || len(pending) != 0 || ran != 3 {
		t.Fatalf("Left = %v, %v after %d undos; want b failed, all three run", failed, pending, ran)
	}
	if len(j.es) != 0 {
		t.Fatalf("quiet undos journaled: %v", j.lines())
	}
	if err := r.Run(context.Background(), []Step{{Name: "run", Run: ok}}); err != nil || !slices.Equal(j.lines(), []string{"c1/run:started", "c1/run:ok"}) {
		t.Fatalf("cell journal %v (%v)", j.lines(), err)
	}
}

// TestTakeLaterAndRunAsOne: an undo taken from the stack runs once (Unwind
// does not find it); a step Later does not stop the list, its error comes
// at the end; RunAsOne journals the scope as one step.
func TestTakeLaterAndRunAsOne(t *testing.T) {
	j := &memJournal{}
	r := &Runner{Journal: j}
	undos := 0
	undo := func(context.Context) error { undos++; return nil }
	ok := func(context.Context) error { return nil }
	err := r.RunAsOne(context.Background(), "restore", "benchbed restore", []Step{
		{Name: "apply", Detail: "fault 0", Run: ok, Undo: undo},
		{Name: "faults", Run: func(context.Context) error { return errors.New("one left") }, Later: true},
		{Name: "undo-now", Run: func(ctx context.Context) error {
			st, found := r.Take(func(s Step) bool { return s.Detail == "fault 0" })
			if !found {
				return errors.New("the apply's undo is not on the stack")
			}
			if _, again := r.Take(func(s Step) bool { return s.Detail == "fault 0" }); again {
				return errors.New("taken twice")
			}
			return st.Undo(ctx)
		}},
	})
	var se *Error
	if !errors.As(err, &se) || se.Step != "faults" || undos != 1 {
		t.Fatalf("err %v, %d undos: want the faults step's error at the end and the undo run once", err, undos)
	}
	if got, want := j.lines(), []string{"/restore:started", "/restore:failed"}; !slices.Equal(got, want) {
		t.Fatalf("journal %v, want %v", got, want)
	}
}
