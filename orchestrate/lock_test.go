package orchestrate

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/remote"
)

// shellRunner runs commands with the local /bin/sh, each host's LockDir
// moved under its own temporary directory: the scripts as they run on a
// host, without SSH.
type shellRunner struct {
	roots map[string]string
}

func newShellRunner(t *testing.T, hosts ...string) *shellRunner {
	r := &shellRunner{roots: map[string]string{}}
	for _, h := range hosts {
		r.roots[h] = t.TempDir()
	}
	return r
}

func (r *shellRunner) Run(ctx context.Context, host, cmd string) (*remote.Result, error) {
	cmd = strings.ReplaceAll(cmd, LockDir, filepath.Join(r.roots[host], "lock"))
	out, err := exec.CommandContext(ctx, "/bin/sh", "-c", cmd).Output()
	res := &remote.Result{Host: host, Cmd: cmd, Stdout: out}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return res, &remote.ExitError{Host: host, Cmd: cmd, Code: ee.ExitCode(), StderrTail: string(ee.Stderr)}
	}
	return res, err
}

func TestLockRefusesAnotherRunAndNamesIt(t *testing.T) {
	r := newShellRunner(t, "a", "b")
	ctx := context.Background()
	first := NewHolder("run-1")
	if err := Lock(ctx, r, []string{"a", "b"}, first, false); err != nil {
		t.Fatal(err)
	}
	err := Lock(ctx, r, []string{"a", "b"}, NewHolder("run-2"), false)
	var le *LockError
	if !errors.As(err, &le) || le.Holder.Run != "run-1" || !strings.Contains(err.Error(), "since") ||
		!strings.Contains(err.Error(), first.By) || !strings.Contains(err.Error(), "--break-lock") {
		t.Fatalf("err = %v, want a refusal naming run-1, its holder and since when", err)
	}
	// The same run (a resume) takes its own locks over.
	if err := Lock(ctx, r, []string{"a", "b"}, NewHolder("run-1"), false); err != nil {
		t.Fatalf("resume: %v", err)
	}
	// Another run's unlock leaves run-1's locks.
	if err := Unlock(ctx, r, []string{"a"}, "run-2"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r.roots["a"], "lock", "holder")); err != nil {
		t.Fatalf("run-1's lock was removed by run-2's unlock: %v", err)
	}
	if err := Lock(ctx, r, []string{"a", "b"}, NewHolder("run-3"), true); err != nil {
		t.Fatalf("--break-lock: %v", err)
	}
	if err := Unlock(ctx, r, []string{"a", "b"}, "run-3"); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"a", "b"} {
		if _, err := os.Stat(filepath.Join(r.roots[h], "lock")); !os.IsNotExist(err) {
			t.Fatalf("%s: lock left after unlock (%v)", h, err)
		}
	}
}

func TestLockReleasesWhatItTookOnRefusal(t *testing.T) {
	r := newShellRunner(t, "a", "b")
	ctx := context.Background()
	if err := Lock(ctx, r, []string{"b"}, NewHolder("other"), false); err != nil {
		t.Fatal(err)
	}
	if err := Lock(ctx, r, []string{"a", "b"}, NewHolder("mine"), false); err == nil {
		t.Fatal("b is held by another run")
	}
	if _, err := os.Stat(filepath.Join(r.roots["a"], "lock")); !os.IsNotExist(err) {
		t.Fatalf("a's lock kept after the refusal on b (%v)", err)
	}
}

// TestFailedTakeOverKeepsTheRunsLocks: a restore (or resume) of run
// "killed" that cannot lock every host leaves the killed run's locks
// where they were: its changes may still be on those hosts.
func TestFailedTakeOverKeepsTheRunsLocks(t *testing.T) {
	r := newShellRunner(t, "a", "b")
	ctx := context.Background()
	if err := Lock(ctx, r, []string{"a"}, NewHolder("killed"), false); err != nil {
		t.Fatal(err)
	}
	if err := Lock(ctx, r, []string{"b"}, NewHolder("other"), false); err != nil {
		t.Fatal(err)
	}
	if err := Lock(ctx, r, []string{"a", "b"}, NewHolder("killed"), false); err == nil {
		t.Fatal("b is held by another run")
	}
	if b, err := os.ReadFile(filepath.Join(r.roots["a"], "lock", "holder")); err != nil || !strings.Contains(string(b), `"run":"killed"`) {
		t.Fatalf("a: the killed run's lock is gone after a failed take-over (%v): %s", err, b)
	}
}
