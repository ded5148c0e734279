package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/results/rundir"
)

// These tests stop before any host is contacted: the seed's hosts are not
// ours to reach.

func TestSweepRefusesBadFlags(t *testing.T) {
	runs := t.TempDir()
	code, _, errOut := captureRun(t, "sweep", "--runs-dir", runs, "--on-failure", "maybe", seedFile)
	if code == 0 || !strings.Contains(errOut, `--on-failure "maybe"`) {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = captureRun(t, "sweep", "--runs-dir", runs, "--only", "servers_per_port=9", seedFile)
	if code == 0 || !strings.Contains(errOut, "--only servers_per_port=9") || !strings.Contains(errOut, "no such variant") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if ents, _ := os.ReadDir(runs); len(ents) != 0 {
		t.Fatalf("a refused sweep created %v", ents)
	}
	code, _, errOut = captureRun(t, "sweep", "--runs-dir", runs, "--resume", "no-such-run", seedFile)
	if code == 0 || !strings.Contains(errOut, "no-such-run") {
		t.Fatalf("resume of a missing run: exit %d, stderr %q", code, errOut)
	}
}

func TestRestoreNeedsASweepRun(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := captureRun(t, "restore", dir)
	if code == 0 || !strings.Contains(errOut, "not a sweep's run directory") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = captureRun(t, "restore", "--runs-dir", dir, "20990101T000000Z-abcdef")
	if code == 0 || !strings.Contains(errOut, "no such run directory") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	os.WriteFile(filepath.Join(dir, rundir.SweepFile), []byte(`{"testbed": "/nonexistent/tb.hcl"}`), 0o644)
	if code, _, errOut = captureRun(t, "restore", dir); code == 0 || !strings.Contains(errOut, "/nonexistent/tb.hcl") {
		t.Fatalf("a missing testbed: exit %d, stderr %q", code, errOut)
	}
}
