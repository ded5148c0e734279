package faults

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan"
)

// TestRebalanceAndItsUndoOnARealBuilder runs the rebalance both ways: in
// one Python process (a python3 that imports Swift first on PATH) and as
// swift-ring-builder three times (a python3 without Swift first on PATH).
func TestRebalanceAndItsUndoOnARealBuilder(t *testing.T) {
	srb, err := exec.LookPath("swift-ring-builder")
	if err != nil {
		t.Skip("SKIP (loud): no swift-ring-builder (Debian: swift)")
	}
	noSwift := t.TempDir()
	if err := os.WriteFile(filepath.Join(noSwift, "python3"), []byte("#!/bin/sh\nexit 10\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := os.Getenv("PATH")
	for _, c := range []struct{ name, path string }{
		{"OnePythonProcess", filepath.Dir(srb) + ":" + path},
		{"CommandThreeTimes", noSwift + ":" + path},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("PATH", c.path)
			if c.name == "OnePythonProcess" {
				if out, err := exec.Command("python3", "-c", "import swift.cli.ringbuilder").CombinedOutput(); err != nil {
					t.Skipf("SKIP (loud): the python3 beside swift-ring-builder does not import Swift: %v %s", err, out)
				}
			}
			rebalanceOnARealBuilder(t)
		})
	}
}

func rebalanceOnARealBuilder(t *testing.T) {
	dir := t.TempDir()
	b := filepath.Join(dir, "object.builder")
	must(t, "", "builder", "swift-ring-builder "+b+" create 6 2 1 && "+
		"for d in d1 d2 d3; do swift-ring-builder "+b+" add r1z1-127.0.0.1:6200/$d 100 >/dev/null || exit 1; done; "+
		"swift-ring-builder "+b+" rebalance >/dev/null; [ $? -le 1 ]")
	s, err := Build(Target{ID: "f7-proxy1", Host: "stor1", Fault: &plan.Fault{Kind: plan.FaultRebalance},
		Ring: Ring{Name: "object", Dir: dir, Device: "127.0.0.1/d1", Weight: 0}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = sh(t, "", s.Undo+"rm -f \"$state.sum\"\n") })
	lifecycle(t, "", s, func() {
		if out := must(t, "", "list", "swift-ring-builder "+b+" search 127.0.0.1/d1"); !strings.Contains(out, " 0.00 ") {
			t.Errorf("d1 not re-weighted to 0:\n%s", out)
		}
		if _, ok := sh(t, "", s.Apply); ok {
			t.Error("a second apply over an unundone one succeeded")
		}
	})
	if out := must(t, "", "list", "swift-ring-builder "+b+" search 127.0.0.1/d1"); !strings.Contains(out, " 100.00 ") {
		t.Errorf("d1's weight not back:\n%s", out)
	}
}
