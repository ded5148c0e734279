package custody

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestRestoreRefusesARunStillSweeping: a lock of the run held by a live
// benchbed of this machine refuses the restore naming its pid; a dead one,
// or a live process that is not a benchbed (a reused pid), does not.
func TestRestoreRefusesARunStillSweeping(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("SKIP: no sleep command")
	}
	src, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "benchbed")
	if err := os.WriteFile(bin, src, 0o755); err != nil {
		t.Fatal(err)
	}
	sweeping, other := exec.Command(bin, "3600"), exec.Command(sleep, "3600")
	for _, c := range []*exec.Cmd{sweeping, other} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	}
	r := lockShells(t, "a", "b")
	ctx := context.Background()
	hold := func(pid int) {
		h := NewHolder("r1")
		h.PID = pid
		if _, err := Lock(ctx, r, []string{"a", "b"}, h, true); err != nil {
			t.Fatal(err)
		}
	}
	hold(sweeping.Process.Pid)
	err = checkNotRunning(ctx, r, []string{"a", "b"}, "r1")
	var re *runningError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "pid "+strconv.Itoa(sweeping.Process.Pid)) {
		t.Fatalf("err = %v, want the live sweep named", err)
	}
	if err := checkNotRunning(ctx, r, []string{"a", "b"}, "r2"); err != nil {
		t.Fatalf("another run's restore: %v", err)
	}
	hold(other.Process.Pid)
	if err := checkNotRunning(ctx, r, []string{"a", "b"}, "r1"); err != nil {
		t.Fatalf("a live process that is not benchbed: %v", err)
	}
	sweeping.Process.Kill()
	sweeping.Wait()
	hold(sweeping.Process.Pid)
	if err := checkNotRunning(ctx, r, []string{"a", "b"}, "r1"); err != nil {
		t.Fatalf("a sweep that is gone: %v", err)
	}
}
