package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReportVerdictFirst: report's text opens, after its title, on the
// run's caveats and the verdict of each variant against the first (or
// --baseline), within 120 columns; report.html too; --out prints only
// where the files are.
func TestReportVerdictFirst(t *testing.T) {
	run := verdictRun(t, t.TempDir(), []string{"normal", "slow", "same"},
		[]time.Duration{100 * time.Millisecond, 123 * time.Millisecond, 100 * time.Millisecond})
	code, out, stderr := captureRun(t, "report", run)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	lines := strings.Split(out, "\n")
	want := []string{"", "title", "underline", "testbed lab, run 20261201T000000Z-abcdef, 3 cell(s), started 2026-12-01T00:00:00Z", "",
		"CAVEAT: one run a variant: the verdicts rest on batch means of each run's seconds, weaker evidence than repeats (drift",
		"  between runs unseen; sweep repeat = N or \"auto\")", "",
		"verdict against normal (95% intervals; no difference: within ±2%)",
		"  slow / w: Welch's t over 30+30 batch means (one run a side)",
		"    req/s           +0.0% [-1.4, +1.4]     no difference",
		"    first-byte p99  +23.0% [+22.5, +23.6]  worse (weaker evidence: one run a side)",
		"    last-byte p99   +23.0% [+22.4, +23.6]  worse (weaker evidence: one run a side)",
		"    changes object-server.conf (stor1): [DEFAULT] workers: 2 -> 3",
		"  same / w: Welch's t over 30+30 batch means (one run a side)",
	}
	for i, w := range want {
		if i == 1 || i == 2 || i >= len(lines) {
			continue // the title and its underline
		}
		if lines[i] != w {
			t.Errorf("line %d: %q, want %q", i, lines[i], w)
		}
	}
	for i, l := range lines[:min(len(lines), 20)] {
		if len([]rune(l)) > 120 {
			t.Errorf("line %d is %d columns", i, len([]rune(l)))
		}
	}
	code, out, _ = captureRun(t, "report", "--baseline", "slow", run)
	if code != 0 || !strings.Contains(out, "verdict against slow") || !strings.Contains(out, "  normal / w: ") {
		t.Errorf("--baseline slow: exit %d\n%s", code, out)
	}
	dir := t.TempDir()
	code, out, _ = captureRun(t, "report", "--out", dir, run)
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	v, table := strings.Index(string(page), `<h2 id="verdict">`), strings.Index(string(page), "Time to first byte")
	if code != 0 || err != nil || strings.Count(out, "\n") != 1 || !strings.Contains(out, "report.html") || v < 0 || v > table {
		t.Errorf("--out: exit %d, %v, verdict at %d, table at %d\n%s", code, err, v, table, out)
	}
}

// TestReportVerdictOldRun: a run without per-second series or streams
// (an older run) still renders: its verdict is not decided, and a failed
// cell is a caveat said once.
func TestReportVerdictOldRun(t *testing.T) {
	dir := writeReportRun(t, t.TempDir(), "20261130T010203Z-abcdef")
	code, out, stderr := captureRun(t, "report", dir)
	if code != 0 || !strings.Contains(out, "CAVEAT: 1 cell(s) failed (no verdict on them): 002-threads_per_disk_1-64K_get-r1") ||
		!strings.Contains(out, "  threads_per_disk=1 / 64K_get (failed)") || !strings.Contains(out, "not decided: a side failed") {
		t.Errorf("exit %d\n%s\n%s", code, out, stderr)
	}
}

// TestReportVerdictOnly: --verdict prints the run's line, caveats and
// verdict, none of the tables.
func TestReportVerdictOnly(t *testing.T) {
	run := verdictRun(t, t.TempDir(), []string{"normal", "slow"}, []time.Duration{100 * time.Millisecond, 123 * time.Millisecond})
	code, out, stderr := captureRun(t, "report", "--verdict", run)
	if code != 0 || !strings.HasPrefix(out, "testbed lab, run ") || !strings.Contains(out, "verdict against normal") ||
		!strings.Contains(out, "slow / w:") || strings.Contains(out, "Time to first byte") || strings.Contains(out, "=====") {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
}
