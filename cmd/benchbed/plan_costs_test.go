package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchbed/rundir"
)

// TestPlanLearnsFromJournals: with an earlier run of the testbed under
// --runs-dir, plan estimates from its journaled step times and says so;
// without, it says it uses the measured defaults.
func TestPlanLearnsFromJournals(t *testing.T) {
	root := t.TempDir()
	est := func() (float64, string, string) {
		t.Helper()
		code, out, errOut := captureRun(t, "plan", "--json", "--runs-dir", root, seedFile)
		if code != 0 || errOut != "" {
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
