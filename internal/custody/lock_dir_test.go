package custody

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLockParentPrivate: the lock's directory is made 0700; one that is a
// symlink or another user's is refused, naming host and directory, and no
// lock is written through it.
func TestLockParentPrivate(t *testing.T) {
	ctx := context.Background()
	r := lockShells(t, "a")
	if _, err := Lock(ctx, r, []string{"a"}, NewHolder("run-1"), false); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(filepath.Join(r.Root("a"), "private"))
	if err != nil || fi.Mode().Perm() != 0o700 || !fi.IsDir() {
		t.Fatalf("lock parent: %v %v", fi.Mode(), err)
	}
	plants := map[string]func(t *testing.T, dir, elsewhere string){
		"symlink": func(t *testing.T, dir, elsewhere string) {
			if err := os.Symlink(elsewhere, dir); err != nil {
				t.Fatal(err)
			}
		},
		"other owner": func(t *testing.T, dir, elsewhere string) {
			if os.Geteuid() != 0 {
				t.Skip("SKIPPED: chown to another uid needs root")
			}
			if err := os.Mkdir(dir, 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(dir, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, plant := range plants {
		t.Run(name, func(t *testing.T) {
			r := lockShells(t, "h1")
			dir := filepath.Join(r.Root("h1"), "private")
			elsewhere := t.TempDir()
			plant(t, dir, elsewhere)
			_, err := Lock(ctx, r, []string{"h1"}, NewHolder("run-1"), false)
			if err == nil || !strings.Contains(err.Error(), "h1: ") || !strings.Contains(err.Error(), LockParent) ||
				!strings.Contains(err.Error(), "not benchbed's own") {
				t.Fatalf("want a refusal naming h1 and %s, got %v", LockParent, err)
			}
			for _, p := range []string{filepath.Join(elsewhere, "sweep.lock"), filepath.Join(dir, "sweep.lock")} {
				if _, err := os.Lstat(p); !os.IsNotExist(err) {
					t.Fatalf("a lock was written through the planted directory: %s (%v)", p, err)
				}
			}
			if err := Unlock(ctx, r, []string{"h1"}, "run-1"); err == nil {
				t.Fatal("unlock trusted the planted directory")
			}
		})
	}
}

// TestUnlockReleasesOldLayout: a run of an earlier version locked
// oldLockDir; its unlock (a restore) releases it there, another run's is
// left.
func TestUnlockReleasesOldLayout(t *testing.T) {
	ctx := context.Background()
	r := lockShells(t, "a", "b")
	for h, run := range map[string]string{"a": "old-run", "b": "someone-else"} {
		old := filepath.Join(r.Root(h), "private-sweep.lock") // oldLockDir under lockShells
		if err := os.Mkdir(old, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(old, "holder"), []byte(`{"run":"`+run+`"}`+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := Unlock(ctx, r, []string{"a", "b"}, "old-run"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r.Root("a"), "private-sweep.lock")); !os.IsNotExist(err) {
		t.Fatalf("a: the old run's lock is still there (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(r.Root("b"), "private-sweep.lock", "holder")); err != nil {
		t.Fatalf("b: another run's old lock was removed: %v", err)
	}
}
