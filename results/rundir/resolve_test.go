package rundir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestResolve takes every form of run reference the commands accept.
func TestResolve(t *testing.T) {
	root := t.TempDir()
	old, err := NewRun(root, "lab", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	other, err := NewRun(root, "other", time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ testbed, ref, want string }{
		{"", old.Dir, old.Dir},    // a path
		{"lab", old.ID, old.Dir},  // an id of the testbed
		{"", other.ID, other.Dir}, // an id of any testbed
		{"lab", Latest, old.Dir},  // the testbed's newest
		{"", Latest, other.Dir},   // the newest of all
		{"", filepath.Dir(old.Dir) + "/", filepath.Dir(old.Dir) + "/"}, // any directory
	} {
		r, err := Resolve(root, tc.testbed, tc.ref)
		if err != nil || r.Dir != tc.want {
			t.Errorf("Resolve(%q, %q) = %v, %v; want %s", tc.testbed, tc.ref, r, err, tc.want)
		}
	}
	if _, err := Resolve(root, "other", old.ID); err == nil || !strings.Contains(err.Error(), filepath.Join(root, "other")) {
		t.Errorf("an id of another testbed: %v", err)
	}
	if _, err := Resolve(root, "nope", Latest); err == nil || !strings.Contains(err.Error(), "no run of nope") {
		t.Errorf("latest of a testbed without runs: %v", err)
	}
}

// TestResolveWorkingDirectory takes a directory named without a path.
func TestResolveWorkingDirectory(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.Mkdir("20261201T000000Z-abcdef", 0o750); err != nil {
		t.Fatal(err)
	}
	r, err := Resolve("", "", "20261201T000000Z-abcdef")
	if err != nil || r.Dir != "20261201T000000Z-abcdef" || r.Started.IsZero() {
		t.Fatalf("Resolve = %+v, %v", r, err)
	}
	if _, err := Resolve("", "", "missing"); err == nil || !strings.Contains(err.Error(), filepath.Join(DefaultRoot, "*")) {
		t.Fatalf("a missing run: %v", err)
	}
}
