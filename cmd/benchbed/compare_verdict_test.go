package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchbed/results"
	"benchbed/results/rundir"
)

// verdictSeconds is the fixture cells' run: long enough for 10 batches.
const verdictSeconds = 32

// verdictRun writes a run of testbed lab under runs (id "20261201T000000Z-
// abcdef"), one 32 s cell per variant whose one agent's stream does,
// each second, about 50 GETs of about lats[i]; it returns the run's
// directory.
func verdictRun(t *testing.T, runs string, variants []string, lats []time.Duration) string {
	t.Helper()
	dir := filepath.Join(runs, "lab", "20261201T000000Z-abcdef")
	sum := results.Summary{Run: filepath.Base(dir), Testbed: "lab"}
	for i, v := range variants {
		c := results.Cell{ID: fmt.Sprintf("%03d-%s-w-r1", i+1, rundir.SafeName(v))}
		cd := filepath.Join(dir, rundir.CellsDir, c.ID)
		total, per := writeAgentStream(t, filepath.Join(cd, rundir.AgentsDir, "agent-1-client1.jsonl"), lats[i])
		c2 := results.Summarise(total, verdictSeconds*time.Second)
		c2.ID, c2.Variant, c2.Workload, c2.Repeat, c2.Status, c2.PerSecond = c.ID, v, "w", 1, results.StatusOK, per
		sum.Cells = append(sum.Cells, c2)
		writeTestFile(t, filepath.Join(cd, rundir.ConfsDir, "stor1", "etc/swift/object-server.conf"),
			[]byte(fmt.Sprintf("[DEFAULT]\nworkers = %d\n", i+2)))
	}
	b, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(dir, rundir.SummaryFile), b)
	return dir
}

// writeAgentStream writes one agent's stream of verdictSeconds intervals
// and returns its recording and per-second counts.
func writeAgentStream(t *testing.T, p string, lat time.Duration) (results.Recording, []int64) {
	t.Helper()
	total, per := results.Recording{}, make([]int64, verdictSeconds)
	var b strings.Builder
	enc := json.NewEncoder(&b)
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for i := range verdictSeconds {
		h := results.NewOpHists()
		per[i] = int64(50 + (i*7)%5)
		for k := range per[i] {
			l := lat + time.Duration(k%10)*lat/50 + time.Duration((i*3)%4)*lat/100
			h.FirstByte.Record(l / 2)
			h.LastByte.Record(l)
		}
		rec := results.Recording{"GET": h}
		total.Merge(rec)
		t0 := start.Add(time.Duration(i) * time.Second)
		_ = enc.Encode(results.AgentEvent{Type: "interval", Agent: "a", Index: i, Start: t0, End: t0.Add(time.Second), Ops: rec})
	}
	_ = enc.Encode(results.AgentEvent{Type: "done", Agent: "a", Duration: verdictSeconds})
	writeTestFile(t, p, []byte(b.String()))
	return total, per
}

// TestCompareP99Gate: a first-byte p99 23 % above the baseline's is
// decided on the batches' bootstrap interval and fails a '> +10%' gate;
// the verdict lines come first.
func TestCompareP99Gate(t *testing.T) {
	runs := t.TempDir()
	run := verdictRun(t, runs, []string{"normal", "slow"}, []time.Duration{100 * time.Millisecond, 123 * time.Millisecond})
	code, out, _ := captureRun(t, "compare", "--fail-if", "first_byte_p99 > +10%", run+":normal", run+":slow")
	lines := strings.Split(out, "\n")
	if code != 1 || lines[0] != "verdict against normal / w (95% intervals; no difference: within ±2%)" ||
		!strings.HasPrefix(lines[1], "  slow / w: Welch's t over 30+30 batch means (one run a side)") ||
		!strings.HasPrefix(lines[3], "    first-byte p99  +23.") || !strings.Contains(lines[3], "worse (weaker evidence: one run a side)") ||
		!strings.Contains(lines[5], "changes object-server.conf (stor1): [DEFAULT] workers: 2 -> 3") ||
		!strings.Contains(out, "FAIL  slow / w: first_byte_p99 +23.") || !strings.Contains(out, "(bootstrap over 30+30 batch means (one run a side))") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	for _, l := range lines[:6] {
		if len([]rune(l)) > 120 {
			t.Errorf("a verdict line wider than 120 columns: %q", l)
		}
	}
}

// TestCompareSameRun: identical cells are no different; a run compared
// with itself is warned; latest:CELL names a cell of the newest run.
func TestCompareSameRun(t *testing.T) {
	runs := t.TempDir()
	verdictRun(t, runs, []string{"normal", "same"}, []time.Duration{100 * time.Millisecond, 100 * time.Millisecond})
	code, out, stderr := captureRun(t, "compare", "--runs-dir", runs, "latest:normal", "latest:same")
	if code != 0 || !strings.Contains(out, "    req/s           +0.0% [-1.4, +1.4]     no difference") ||
		!strings.Contains(out, "    first-byte p99  +0.0% [-0.5, +0.5]     no difference") {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	code, out, stderr = captureRun(t, "compare", "--runs-dir", runs, "latest", "latest")
	if code != 0 || !strings.Contains(out+stderr, "with itself: every change is 0 by construction") {
		t.Errorf("a run against itself: exit %d\n%s\n%s", code, out, stderr)
	}
}
