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
	"time"

	"benchbed/internal/labtest"
)

func TestLockRefusesAnotherRunAndNamesIt(t *testing.T) {
	r := lockShells(t, "a", "b")
	ctx := context.Background()
	first := NewHolder("run-1")
	if _, err := Lock(ctx, r, []string{"a", "b"}, first, false); err != nil {
		t.Fatal(err)
	}
	_, err := Lock(ctx, r, []string{"a", "b"}, NewHolder("run-2"), false)
	var le *lockError
	if !errors.As(err, &le) || le.Holder.Run != "run-1" || !strings.Contains(err.Error(), "since") ||
		!strings.Contains(err.Error(), first.By) || !strings.Contains(err.Error(), "--break-lock") {
		t.Fatalf("err = %v, want a refusal naming run-1, its Holder and since when", err)
	}
	// The same run (a resume) takes its own locks over.
	if _, err := Lock(ctx, r, []string{"a", "b"}, NewHolder("run-1"), false); err != nil {
		t.Fatalf("resume: %v", err)
	}
	// Another run's unlock leaves run-1's locks.
	if err := Unlock(ctx, r, []string{"a"}, "run-2"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r.Root("a"), lockRel, "holder")); err != nil {
		t.Fatalf("run-1's lock was removed by run-2's unlock: %v", err)
	}
	if _, err := Lock(ctx, r, []string{"a", "b"}, NewHolder("run-3"), true); err != nil {
		t.Fatalf("--break-lock: %v", err)
	}
	if err := Unlock(ctx, r, []string{"a", "b"}, "run-3"); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"a", "b"} {
		if _, err := os.Stat(filepath.Join(r.Root(h), lockRel)); !os.IsNotExist(err) {
			t.Fatalf("%s: lock left after unlock (%v)", h, err)
		}
	}
}

func TestLockReleasesWhatItTookOnRefusal(t *testing.T) {
	r := lockShells(t, "a", "b")
	ctx := context.Background()
	if _, err := Lock(ctx, r, []string{"b"}, NewHolder("other"), false); err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(ctx, r, []string{"a", "b"}, NewHolder("mine"), false); err == nil {
		t.Fatal("b is held by another run")
	}
	if _, err := os.Stat(filepath.Join(r.Root("a"), lockRel)); !os.IsNotExist(err) {
		t.Fatalf("a's lock kept after the refusal on b (%v)", err)
	}
}

// TestFailedTakeOverKeepsTheRunsLocks: a restore (or resume) of run
// "killed" that cannot lock every host leaves the killed run's locks
// where they were: its changes may still be on those hosts.
func TestFailedTakeOverKeepsTheRunsLocks(t *testing.T) {
	r := lockShells(t, "a", "b")
	ctx := context.Background()
	if _, err := Lock(ctx, r, []string{"a"}, NewHolder("killed"), false); err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(ctx, r, []string{"b"}, NewHolder("other"), false); err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(ctx, r, []string{"a", "b"}, NewHolder("killed"), false); err == nil {
		t.Fatal("b is held by another run")
	}
	if b, err := os.ReadFile(filepath.Join(r.Root("a"), lockRel, "holder")); err != nil || !strings.Contains(string(b), `"run":"killed"`) {
		t.Fatalf("a: the killed run's lock is gone after a failed take-over (%v): %s", err, b)
	}
}

// deadPID returns the pid of a process of this machine that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// liveBenchbed starts a process whose command line is a benchbed's and
// returns its pid; it ends with the test.
func liveBenchbed(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("bash", "-c", "exec -a benchbed-sweep sleep 3600")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	// Until bash has exec'd under its new name: the 30 s only stop a
	// broken test (the old 1 s was a loaded machine's fork and exec).
	for end := time.Now().Add(30 * time.Second); !benchbedAlive(cmd.Process.Pid) && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	if !benchbedAlive(cmd.Process.Pid) {
		t.Fatal("the stand-in sweep does not look like a running benchbed")
	}
	return cmd.Process.Pid
}

// TestStaleLock: another run's lock is taken over without --break-lock
// when its Holder ran here and its pid is gone; a live Holder of this
// machine, or a Holder of another machine, is still refused.
func TestStaleLock(t *testing.T) {
	ctx := context.Background()
	me := NewHolder("mine")
	cases := []struct {
		name  string
		other func(t *testing.T) Holder
		stale bool
	}{
		{"DeadPIDHere", func(t *testing.T) Holder {
			h := NewHolder("killed")
			h.PID = deadPID(t)
			return h
		}, true},
		{"LivePIDHere", func(t *testing.T) Holder {
			h := NewHolder("running")
			h.PID = liveBenchbed(t)
			return h
		}, false},
		{"OtherMachine", func(t *testing.T) Holder {
			h := NewHolder("elsewhere")
			h.By, h.PID = "root@another-machine", deadPID(t)
			return h
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := lockShells(t, "a", "b")
			other := c.other(t)
			if _, err := Lock(ctx, r, []string{"a", "b"}, other, false); err != nil {
				t.Fatal(err)
			}
			stale, err := Lock(ctx, r, []string{"a", "b"}, me, false)
			if !c.stale {
				var le *lockError
				if !errors.As(err, &le) || le.Holder.Run != other.Run || len(stale) != 0 {
					t.Fatalf("err = %v, stale %v; want a refusal naming %s", err, stale, other.Run)
				}
				return
			}
			if err != nil || len(stale) != 2 || stale[0].Host != "a" || stale[1].Host != "b" || stale[0].Holder != other {
				t.Fatalf("stale %v, err %v; want a and b taken over from %s", stale, err, other)
			}
			msg := stale[0].String()
			for _, want := range []string{"stale", other.Run, other.By, strconv.Itoa(other.PID), "since", "no longer runs"} {
				if !strings.Contains(msg, want) {
					t.Errorf("%q does not say %q", msg, want)
				}
			}
			for _, h := range []string{"a", "b"} {
				b, err := os.ReadFile(filepath.Join(r.Root(h), lockRel, "holder"))
				if err != nil || !strings.Contains(string(b), `"run":"mine"`) {
					t.Errorf("%s: the lock is not mine after the take-over (%v): %s", h, err, b)
				}
			}
			if err := Unlock(ctx, r, []string{"a", "b"}, "mine"); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// lockRel is LockDir under a lockShells host's directory.
var lockRel = filepath.Join("private", "sweep.lock")

// lockShells is a shellRunner for hosts with LockParent under each host's
// directory, as "private" (and the old lock, which it prefixes, as
// "private-sweep.lock").
func lockShells(t *testing.T, hosts ...string) *labtest.Shell {
	r := labtest.NewShell(t, hosts...)
	r.Paths[LockParent] = "private"
	return r
}
