package main

import (
	"benchbed/plan/decode"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/results"
	"benchbed/results/compare"
	"benchbed/results/rundir"
)

// compareRun writes a run directory with one cell per variant, of the
// given req/s, and its object-server.conf's servers_per_port.
func compareRun(t *testing.T, variants []string, reqs []float64, spp []int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	sum := results.Summary{Run: "run", Testbed: "lab"}
	for i, v := range variants {
		per := make([]int64, 12)
		for s := range per {
			per[s] = int64(reqs[i]) + int64(s%3)
		}
		op := results.OpSummary{Count: int64(reqs[i] * 12), ReqPerS: reqs[i], FirstByte: results.Stats{P50: 0.02, P99: 0.05}}
		c := results.Cell{ID: fmt.Sprintf("%03d-%s-w-r1", i+1, rundir.SafeName(v)), Variant: v, Workload: "w", Repeat: 1,
			Status: "ok", DurationS: 12, Ops: map[string]results.OpSummary{"GET": op}, Total: op, PerSecond: per}
		sum.Cells = append(sum.Cells, c)
		conf := fmt.Sprintf("[DEFAULT]\nservers_per_port = %d\n", spp[i])
		writeTestFile(t, filepath.Join(dir, rundir.CellsDir, c.ID, rundir.ConfsDir, "stor1", "etc/swift/object-server.conf"), []byte(conf))
		writeTestFile(t, filepath.Join(dir, rundir.CellsDir, c.ID, rundir.RingPortsFile), []byte("# ring object: one port per host (6200)\nstor1 10.0.0.1:6200/d0 100\n"))
	}
	b, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(dir, rundir.SummaryFile), b)
	return dir
}

func writeTestFile(t *testing.T, p string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o640); err != nil {
		t.Fatal(err)
	}
}

func TestCompareCmdTwoCells(t *testing.T) {
	run := compareRun(t, []string{"normal", "servers_per_port=1"}, []float64{500, 400}, []int{0, 1})
	code, out, stderr := captureRun(t, "compare", run+":normal", run+":2")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	for _, want := range []string{"normal / w  vs  servers_per_port=1 / w", "-20.0%", "p=0.000 n=10", "autocorrelated",
		"    [DEFAULT]\n      servers_per_port: 0 -> 1\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = captureRun(t, "compare", "--json", run+":1", run+":2")
	var c compare.Comparison
	if err := json.Unmarshal([]byte(out), &c); code != 0 || err != nil || c.Mode != "cells" || len(c.Pairs) != 1 ||
		c.Pairs[0].Conf == nil || len(c.Pairs[0].Conf.Files) != 1 {
		t.Fatalf("--json: exit %d, %v\n%s", code, err, out)
	}
	if code, out, _ = captureRun(t, "compare", "--format", "markdown", run+":1", run+":2"); code != 0 || !strings.Contains(out, "## normal / w") ||
		!strings.Contains(out, "|:----|") {
		t.Fatalf("--format markdown: exit %d\n%s", code, out)
	}
}

func TestCompareCmdErrors(t *testing.T) {
	run := compareRun(t, []string{"normal", "servers_per_port=1"}, []float64{500, 400}, []int{0, 1})
	missing := filepath.Join(t.TempDir(), "nope")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{run + ":9", run + ":1"}, `no cell "9" (cells: 001-normal-w-r1, 002-servers_per_port=1-w-r1)`},
		{[]string{missing, run}, missing},
		{[]string{run, run + ":1"}, "not a run"},
		{[]string{"--format", "html", run, run}, `--format "html"`},
		{[]string{run}, "requires at least 2 arg(s), only received 1\nUsage: benchbed compare BASE B [C...]"},
		{[]string{"--fail-if", "req/s = 5%", run, run}, "--fail-if: threshold"},
	} {
		code, out, stderr := captureRun(t, append([]string{"compare"}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("compare %q: exit %d, stderr %q, want 2 and %q\n%s", tc.args, code, stderr, tc.want, out)
		}
	}
}

// labInlined is testbeds/lab/lab.hcl with its parts inlined (one text a
// test edits and writes elsewhere, where the parts are not).
func labInlined(t *testing.T) []byte {
	t.Helper()
	tb, diags := decode.Load("../../testbeds/lab/lab.hcl", decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return tb.Inlined()
}
