package e2e

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// checkReportAndCompare runs `benchbed report` and `benchbed compare` on a
// real sweep's run directory (the shared sweep's cells, sharedLabels: normal,
// threads_per_disk=1, servers_per_port=1): the page, the plots and the csv
// name every cell, and compare of normal with servers_per_port=1 shows the
// two variants' figures beside the conf line and the ring that differ.
func checkReportAndCompare(t *testing.T, lab *Env, run string) {
	t.Helper()
	out := t.TempDir()
	if o, e, err := lab.Benchbed(t, "report", run, "--out", out); err != nil {
		t.Fatalf("report --out: %v\n%s\n%s", err, o, e)
	}
	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range append(slices.Clone(sharedLabels), "<svg") {
		if !strings.Contains(string(page), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if svgs, _ := filepath.Glob(filepath.Join(out, "*.svg")); len(svgs) < 3 {
		t.Errorf("plots %v, want 3 or more", svgs)
	}
	checkPageInChromium(t, out, sharedLabels)
	o, e, err := lab.Benchbed(t, "report", run, "--format", "csv")
	if err != nil {
		t.Fatalf("report --format csv: %v\n%s", err, e)
	}
	rows, err := csv.NewReader(strings.NewReader(o)).ReadAll()
	if err != nil || len(rows) < 4 {
		t.Fatalf("csv (%v): %d rows, want a header and one per cell:\n%s", err, len(rows), o)
	}
	o, e, err = lab.Benchbed(t, "compare", run+":normal", run+":servers_per_port=1")
	if err != nil {
		t.Fatalf("compare: %v\n%s\n%s", err, o, e)
	}
	for _, want := range []string{"req/s", "first-byte p99", "servers_per_port: 0 -> 1", "ring object"} {
		if !strings.Contains(o, want) {
			t.Errorf("compare's output lacks %q:\n%s", want, o)
		}
	}
	t.Logf("compare normal vs servers_per_port=1:\n%s", o)
}
