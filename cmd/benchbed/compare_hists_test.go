package main

import (
	"benchbed/results"
	"benchbed/results/compare"
	"benchbed/results/rundir"
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// histRun writes a run of four repeats of variant "normal" whose summary
// says nothing of latency, and whose agent streams hold every request at
// lat (the first repeat's stream at 10*lat, so that a median of repeats
// and a merged histogram differ in p99 only).
func histRun(t *testing.T, lat time.Duration, brokenStream bool) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	sum := results.Summary{Run: "run", Testbed: "lab"}
	for r := 1; r <= 4; r++ {
		op := results.OpSummary{Count: 100, ReqPerS: 10}
		c := results.Cell{ID: fmt.Sprintf("%03d-normal-w-r%d", r, r), Variant: "normal", Workload: "w", Repeat: r, Status: "ok",
			DurationS: 10, Ops: map[string]results.OpSummary{"GET": op}, Total: op}
		sum.Cells = append(sum.Cells, c)
		rec := results.Recording{"GET": results.NewOpHists()}
		for range 100 {
			d := lat
			if r == 1 {
				d = 10 * lat
			}
			rec["GET"].FirstByte.Record(d)
			rec["GET"].LastByte.Record(d)
		}
		var stream bytes.Buffer
		w := results.NewLineWriter(&stream)
		w.Put(results.AgentEvent{Type: "interval", Agent: "a", Index: 0, Ops: rec})
		if !(brokenStream && r == 2) {
			w.Put(results.AgentEvent{Type: "done", Agent: "a", Duration: 10})
		}
		writeTestFile(t, filepath.Join(dir, rundir.CellsDir, c.ID, rundir.AgentsDir, "agent-0-client1.jsonl"), stream.Bytes())
	}
	b, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(dir, rundir.SummaryFile), b)
	return dir
}

func TestComparePooledLatencyFromMergedHistograms(t *testing.T) {
	a, b := histRun(t, 10*time.Millisecond, false), histRun(t, 20*time.Millisecond, false)
	code, out, stderr := captureRun(t, "compare", "--json", a, b)
	var c compare.Comparison
	if err := json.Unmarshal([]byte(out), &c); code != 0 || err != nil {
		t.Fatalf("exit %d, %v\n%s\n%s", code, err, out, stderr)
	}
	p := c.Pairs[0]
	var p50, p99 compare.Metric
	for _, m := range p.Ops[0].Metrics {
		switch m.Name {
		case "first-byte p50 (s)":
			p50 = m
		case "first-byte p99 (s)":
			p99 = m
		}
	}
	// Merged: a quarter of A's requests took 100 ms, so its p99 is 100 ms
	// (a median of the repeats' p99 would say 10 ms); B's are 200 and 20 ms.
	if !near(p50.A, 0.010) || !near(p50.B, 0.020) || !near(p99.A, 0.100) || !near(p99.B, 0.200) {
		t.Fatalf("p50 %v -> %v, p99 %v -> %v, want 0.01 -> 0.02, 0.1 -> 0.2 (notes %v)", p50.A, p50.B, p99.A, p99.B, p.Notes)
	}
	if !strings.Contains(strings.Join(p.Notes, "\n"), "merged histograms") {
		t.Errorf("notes %v", p.Notes)
	}
}

func TestComparePooledLatencyBrokenStreamFallsBack(t *testing.T) {
	a, b := histRun(t, 10*time.Millisecond, true), histRun(t, 20*time.Millisecond, false)
	code, out, stderr := captureRun(t, "compare", a, b)
	if code != 0 || !strings.Contains(out, "median of the repeats' percentiles (histograms of 002-normal-w-r2: "+filepath.Join(a, rundir.CellsDir, "002-normal-w-r2", rundir.AgentsDir)) {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
}

func near(got, want float64) bool { return got > want*0.99 && got < want*1.01 }
