package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchbed/plan"
	"benchbed/plan/decode"
	"benchbed/plan/schedule"
	"benchbed/results/rundir"
)

// TestPlanLearnsFromJournals: with an earlier run of the testbed under
// --runs-dir, plan estimates from its journaled step times and says so;
// without, it says it uses the measured defaults.
func TestPlanLearnsFromJournals(t *testing.T) {
	root := t.TempDir()
	est := func() (float64, string, string) {
		t.Helper()
		code, out, errOut := captureRun(t, "plan", "--json", "--runs-dir", root, seedFile)
		if code != 0 || !onlyRetiredWarnings(errOut) {
			t.Fatalf("exit %d, stderr %s", code, errOut)
		}
		var p struct {
			Cells []struct {
				ID string `json:"id"`
			} `json:"cells"`
			Estimate struct {
				TotalS float64 `json:"total_s"`
				Source string  `json:"source"`
			} `json:"estimate"`
		}
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatal(err)
		}
		if len(p.Cells) == 0 {
			t.Fatal("no cells")
		}
		return p.Estimate.TotalS, p.Estimate.Source, p.Cells[0].ID
	}
	before, src, firstCell := est()
	if !strings.HasPrefix(src, "measured defaults") {
		t.Errorf("without runs: source %q", src)
	}
	run, err := rundir.NewRun(root, "swiftstack-2015", time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	j, err := run.OpenJournal()
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	for i, step := range []string{"record", "restart", "run"} { // the first cell's restart took 10 min
		d := []time.Duration{time.Second, 10 * time.Minute, time.Second}[i]
		_ = j.Add(rundir.Entry{Time: t0, Step: step, Cell: firstCell, Status: rundir.StepStarted})
		t0 = t0.Add(d)
		_ = j.Add(rundir.Entry{Time: t0, Step: step, Cell: firstCell, Status: rundir.StepOK})
	}
	_ = j.Close()
	after, src, _ := est()
	if !strings.Contains(src, "learnt from 1 journaled run(s) of testbed swiftstack-2015") || after < before+500 {
		t.Errorf("with a run whose first restart took 10 min: %.0f s (was %.0f), source %q", after, before, src)
	}
	if _, err := os.Stat(filepath.Join(run.Dir, rundir.JournalFile)); err != nil {
		t.Fatal(err)
	}
}

// writeRun journals a run of testbed under root that ran cell's record,
// restart and run steps at the given times, and returns it.
func writeRun(t *testing.T, root, testbed, cell string, start time.Time, took ...time.Duration) *rundir.Run {
	t.Helper()
	run, err := rundir.NewRun(root, testbed, start)
	if err != nil {
		t.Fatal(err)
	}
	j, err := run.OpenJournal()
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	at := start
	for i, step := range []string{"record", "restart", "run"} {
		if err := j.Add(rundir.Entry{Time: at, Step: step, Cell: cell, Status: rundir.StepStarted}); err != nil {
			t.Fatal(err)
		}
		at = at.Add(took[i])
		if err := j.Add(rundir.Entry{Time: at, Step: step, Cell: cell, Status: rundir.StepOK}); err != nil {
			t.Fatal(err)
		}
	}
	return run
}

// TestSweepEstimateLine: the sweep's closing line gives the run's time by
// its journal beside the estimate of the cells it ran, learnt from the
// testbed's other runs (never from itself); a resumed run gets none, and
// neither does a run refused before its first cell.
func TestSweepEstimateLine(t *testing.T) {
	tb, diags := decode.Load(seedFile, decode.LoadOptions{Vars: map[string]string{}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	cells := plan.Expand(tb)
	root := t.TempDir()
	t0 := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	writeRun(t, root, tb.Name, cells[0].ID, t0, time.Second, 100*time.Second, time.Second)
	cur := writeRun(t, root, tb.Name, cells[0].ID, t0.Add(time.Hour), time.Second, 1000*time.Second, time.Second)
	line := sweepEstimateLine(tb, root, cur, false)
	if !strings.HasPrefix(line, "took 16m42s, estimated ") || !strings.Contains(line, "learnt from 1 journaled run(s)") {
		t.Errorf("closing line %q", line)
	}
	p := schedule.Of(tb, cells[:1])
	p.Reestimate(planCosts(tb, root, cur.ID))
	if !strings.Contains(line, "estimated "+p.Estimate.Total.Round(time.Second).String()+" (") {
		t.Errorf("closing line %q, want the estimate %v of the first cell alone", line, p.Estimate.Total)
	}
	if got := sweepEstimateLine(tb, root, cur, true); got != "" {
		t.Errorf("a resumed run's line %q", got)
	}
	refused, err := rundir.NewRun(root, tb.Name, t0.Add(2*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	j, err := refused.OpenJournal()
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range []string{rundir.StepStarted, rundir.StepFailed} {
		if err := j.Add(rundir.Entry{Time: t0.Add(2*time.Hour + time.Duration(i)*time.Second), Step: "preflight", Status: st}); err != nil {
			t.Fatal(err)
		}
	}
	_ = j.Close()
	if got := sweepEstimateLine(tb, root, refused, false); got != "" {
		t.Errorf("a run refused at its preflight: line %q, want none", got)
	}
}
