package custody

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"benchbed/internal/step"
)

// TestLocksKeepWhatIsNotBack: the one lock protocol of the sweep and the
// restore releases the run's locks but on the hosts kept (their
// originals not back), and a refused Take releases nothing of the run's.
func TestLocksKeepWhatIsNotBack(t *testing.T) {
	r := lockShells(t, "a", "b")
	ctx := context.Background()
	l := &Locks{Pool: r, Hosts: []string{"a", "b"}, Run: "run-1", Journal: &step.Runner{}}
	if err := l.Take(ctx); err != nil {
		t.Fatal(err)
	}
	l.Keep("b")
	if err := l.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r.Root("a"), lockRel)); !os.IsNotExist(err) {
		t.Errorf("a: lock left after Release (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(r.Root("b"), lockRel, "holder")); err != nil {
		t.Errorf("b, kept: its lock was released: %v", err)
	}
	other := &Locks{Pool: r, Hosts: []string{"a", "b"}, Run: "run-2", Journal: &step.Runner{}}
	if err := other.Take(ctx); err == nil {
		t.Fatal("run-2 took b, held by run-1")
	}
	if err := other.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r.Root("b"), lockRel, "holder")); err != nil {
		t.Errorf("b: run-1's lock was released by run-2's refused Take: %v", err)
	}
}
