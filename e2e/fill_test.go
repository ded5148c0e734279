package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"benchbed/results"
	"benchbed/results/rundir"
)

// fillObjects is the e2e's fill target: small, so that both variants'
// cells take seconds, and no smaller: the first bucket also counts the
// PUTs of the 32 users that started at 0, so the last holds its width
// (40 objects) less 31 and a bucket narrower than the users in flight
// measures nothing (200 left the last one empty).
const fillObjects = 400

// TestFill: seed 003's second experiment on the lab
// (testbeds/lab/seed003-fill-lab.hcl with a target of fillObjects): each
// variant's cell fills one empty container, every one of its 10 buckets
// holds PUTs, the buckets' object ranges increase without gap from 0 to the
// target and their PUTs add up to the target; the report has a table per
// bucket and the plot of PUT latency against the objects in the container
// (kept with -artifacts), compare gives the change per bucket, and the
// container is left empty.
func TestFill(t *testing.T) {
	lab := Lab(t)
	tb := filepath.Join(lab.Root, "testbeds", "lab", "seed003-fill-lab.hcl")
	setUp(t, lab, tb)
	sw := newLabSwift(t)
	sw.deleteContainers(t, "lab003_fill")
	out, errOut, err := lab.Benchbed(t, "sweep", "-var", "fill_objects="+strconv.Itoa(fillObjects), "--runs-dir", t.TempDir(), tb)
	m := regexp.MustCompile(`sweep: results in (\S+)`).FindStringSubmatch(errOut)
	if err != nil || m == nil {
		t.Fatalf("sweep: %v\n%s\n%s", err, out, errOut)
	}
	run := m[1]
	b, err := os.ReadFile(filepath.Join(run, rundir.SummaryFile))
	must(t, err)
	var sum results.Summary
	must(t, json.Unmarshal(b, &sum))
	if len(sum.Cells) != 2 {
		t.Fatalf("%d cells, want one per variant", len(sum.Cells))
	}
	for _, c := range sum.Cells {
		checkFillCell(t, c)
	}
	if objs := newLabSwift(t).objects(t, "lab003_fill"); len(objs) != 0 { // a new token: the sweep restarted the proxy
		t.Errorf("%d objects left in the fill container", len(objs))
	}
	dir := t.ArtifactDir()
	if out, errOut, err := lab.Benchbed(t, "report", "--out", dir, run); err != nil {
		t.Fatalf("report: %v\n%s\n%s", err, out, errOut)
	}
	txt, err := os.ReadFile(filepath.Join(dir, "report.txt"))
	must(t, err)
	for _, want := range []string{"PUT latency by container fill: normal fill", "PUT latency by container fill: db_preallocation=on against normal"} {
		if !strings.Contains(string(txt), want) {
			t.Errorf("report.txt lacks %q", want)
		}
	}
	for _, f := range []string{"put_latency_by_fill.png", "put_latency_by_fill.svg", "report.html"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	cmp, errOut, err := lab.Benchbed(t, "compare", run+":normal", run+":db_preallocation=on")
	if err != nil || !strings.Contains(cmp, "PUT latency by container fill") || !strings.Contains(cmp, fmt.Sprintf(" %d..%d ", fillObjects*9/10, fillObjects)) {
		t.Errorf("compare: %v\n%s\n%s", err, cmp, errOut)
	}
	if i := strings.Index(string(txt), "PUT latency by container fill"); i >= 0 {
		t.Logf("the report's fill tables (plot: %s):\n%s", filepath.Join(dir, "put_latency_by_fill.png"), txt[i:])
	}
}

// checkFillCell checks one fill cell: ok, every bucket with PUTs, object
// ranges contiguous and increasing up to the target, PUTs adding up to it.
func checkFillCell(t *testing.T, c results.Cell) {
	t.Helper()
	if c.Status != results.StatusOK || len(c.Fill) != 10 {
		t.Fatalf("cell %s: %s (%s), %d buckets", c.ID, c.Status, c.Error, len(c.Fill))
	}
	var from, n int64
	for i, b := range c.Fill {
		if b.From != from || b.To <= b.From || b.Count == 0 || b.LastByte.P50 <= 0 || b.LastByte.P99 < b.LastByte.P50 {
			t.Errorf("cell %s bucket %d: %+v", c.ID, i, b)
		}
		from, n = b.To, n+b.Count+b.Errors
	}
	if from != fillObjects || n != fillObjects || c.Ops["PUT"].Count+c.Ops["PUT"].Errors != fillObjects {
		t.Errorf("cell %s: buckets end at %d with %d PUTs, %d in all; want %d", c.ID, from, n, c.Ops["PUT"].Count, fillObjects)
	}
}
