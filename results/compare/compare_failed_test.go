package compare

import (
	"benchbed/plan"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/results"
	"benchbed/results/rundir"
)

// TestCompareSaysASideFailed: a cell the error-rate gate failed is
// compared only as failed: its side's label says so (failed_b in JSON),
// and the notes carry its verdict with the top causes.
func TestCompareSaysASideFailed(t *testing.T) {
	run := fixRun(t, "run", fixTestbed, false, fixNormal(1, 500), fixSPP1(1, 900))
	p := filepath.Join(run, rundir.SummaryFile)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var sum results.Summary
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	c := &sum.Cells[1]
	c.Total.Errors, c.Total.ErrorsBy = 541, map[string]int64{"http_404": 541}
	c.Ops["GET"] = c.Total
	if results.Gate(c, plan.DefaultMaxError) == nil {
		t.Fatal("the gate let 541 errors through")
	}
	cmpJSON(t, p, sum)
	cmp, out := mustCompare(t, run+":1", run+":servers_per_port=1")
	pair := cmp.Pairs[0]
	if pair.FailedA || !pair.FailedB || !strings.HasSuffix(pair.B, "(failed)") {
		t.Fatalf("pair %s vs %s, failed %v %v", pair.A, pair.B, pair.FailedA, pair.FailedB)
	}
	for _, want := range []string{"servers_per_port=1 / 64K_get (failed)", "is failed: error rate", "top causes: http_404=541 (GET)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
