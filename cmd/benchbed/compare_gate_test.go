package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/results/compare"
)

// TestCompareFailIf: a gate fails (exit 1) on a planted, significant
// regression beyond it, decided on the batch means' interval and naming
// it, and passes (exit 0) a change within it.
func TestCompareFailIf(t *testing.T) {
	run := compareRun(t, []string{"normal", "slow", "same"}, []float64{500, 400, 500.5}, []int{0, 0, 0})
	code, out, stderr := captureRun(t, "compare", "--fail-if", "req/s < -5%", "--fail-if", "first_byte_p99 > +10%", run+":normal", run+":slow")
	if code != 1 || !strings.Contains(out, "FAIL  slow / w: req/s -20.0% beyond req/s < -5% and significant: 95% interval [-20.1%, -19.8%] "+
		"(Welch's t over 10+10 batch means (one run a side))") ||
		!strings.Contains(stderr, "a regression gate failed") {
		t.Fatalf("planted regression: exit %d\n%s\n%s", code, out, stderr)
	}
	// first-byte p99 of single cells without agents' streams: no change.
	if !strings.Contains(out, "ok    slow / w: first_byte_p99 +0.0% within first_byte_p99 > +10%") {
		t.Errorf("latency gate:\n%s", out)
	}
	code, out, stderr = captureRun(t, "compare", "--fail-if", "req/s < -5%", run+":normal", run+":same")
	if code != 0 || !strings.Contains(out, "ok    same / w: req/s +0.0% within req/s < -5%") {
		t.Errorf("a repeat: exit %d\n%s\n%s", code, out, stderr)
	}
	// the verdict's change is its samples': the same per-second series.
	code, out, _ = captureRun(t, "compare", "--fail-if", "req/s > +0.05%", run+":normal", run+":same")
	if code != 0 || !strings.Contains(out, "ok    same / w: req/s +0.0% within req/s > +0.05%") {
		t.Errorf("the same samples: exit %d\n%s", code, out)
	}
	code, out, _ = captureRun(t, "compare", "--json", "--fail-if", "req/s < -5%", run+":normal", run+":slow")
	var c compare.Comparison
	if code != 1 || json.Unmarshal([]byte(out), &c) != nil || len(c.Gates) != 1 || !c.Gates[0].Failed || !c.Gates[0].Significant {
		t.Errorf("--json: exit %d\n%s", code, out)
	}
}

// TestCompareTestbedThresholds: a testbed's threshold blocks gate the
// pairs of their workload as --fail-if does, whatever variants it runs on.
func TestCompareTestbedThresholds(t *testing.T) {
	run := compareRun(t, []string{"normal", "slow"}, []float64{500, 400}, []int{0, 0})
	src := labInlined(t)
	text := strings.Replace(string(src), `workload "64K_get" {`, `workload "w" {
  variants = ["normal", "servers_per_port=2"]
  threshold {
    metric = "req/s"
    op     = "<"
    change = "-10%"
  }`, 1)
	text = strings.Replace(text, `workloads   = ["64K_get"]`, `workloads   = ["w"]`, 1)
	dir := t.TempDir()
	scen, err := os.ReadFile("../../testbeds/lab/64K_get_lab.scenario")
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(dir, "64K_get_lab.scenario"), scen)
	writeTestFile(t, filepath.Join(dir, "lab.hcl"), []byte(text))
	code, out, stderr := captureRun(t, "compare", "--testbed", filepath.Join(dir, "lab.hcl"), run+":normal", run+":slow")
	if code != 1 || !strings.Contains(out, "FAIL  slow / w: req/s -20.0% beyond req/s < -10% and significant") {
		t.Errorf("exit %d\n%s\n%s", code, out, stderr)
	}
}

// TestCompareNWay: one baseline against two cells in one table.
func TestCompareNWay(t *testing.T) {
	run := compareRun(t, []string{"normal", "slow", "same"}, []float64{500, 400, 500.5}, []int{0, 1, 0})
	code, out, stderr := captureRun(t, "compare", run+":normal", run+":slow", run+":same")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	for _, want := range []string{"verdict against ", "baseline: ", "slow: ", "same: ", "│ pair       │ op  │ metric             │ baseline │           slow │           same │",
		"normal / w", "400.0 (-20.0%)", "500.5 (~)"} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = captureRun(t, "compare", "--json", "--fail-if", "req/s < -5%", run+":normal", run+":slow", run+":same")
	var got struct {
		Baseline    string
		Comparisons []compare.Comparison
	}
	if code != 1 || json.Unmarshal([]byte(out), &got) != nil || len(got.Comparisons) != 2 ||
		!got.Comparisons[0].Gates[0].Failed || got.Comparisons[1].Gates[0].Failed {
		t.Errorf("--json: exit %d\n%s", code, out)
	}
}
