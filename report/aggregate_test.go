package report

import (
	"testing"
	"time"

	"benchbed/results"
	"benchbed/rundir"
)

func TestRepeatsGroupOnlyRepeatedCells(t *testing.T) {
	ok := func(v string, r int, rps float64) results.Cell {
		return results.Cell{Variant: v, Workload: "w", Repeat: r, Status: "ok", Total: results.OpSummary{ReqPerS: rps}}
	}
	cells := []results.Cell{ok("b", 1, 10), ok("a", 1, 100), ok("b", 2, 20), ok("c", 1, 5),
		{Variant: "b", Workload: "w", Repeat: 3, Status: "failed", Total: results.OpSummary{Errors: 7}}}
	g := Repeats(cells)
	if len(g) != 1 || g[0].Variant != "b" || g[0].OK != 2 || len(g[0].Cells) != 3 || g[0].Errors != 7 ||
		g[0].ReqPerS.Mean != 15 || g[0].ReqPerS.Min != 10 || g[0].ReqPerS.Max != 20 {
		t.Fatalf("repeats = %+v", g)
	}
	bars := Bars(cells)
	if len(bars) != 3 || bars[0].Label != "b" || bars[0].Mean != 15 || bars[0].N != 2 || bars[1].Label != "a" || bars[1].StdDev != 0 {
		t.Errorf("bars = %+v", bars)
	}
}

func TestStepsPairStartsWithOutcomes(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	steps := Steps([]rundir.Entry{
		{Time: at(0), Step: "push-conf", Cell: "001", Host: "stor1", Status: rundir.StepStarted},
		{Time: at(0.5), Step: "push-conf", Cell: "001", Host: "stor2", Status: rundir.StepStarted},
		{Time: at(2), Step: "push-conf", Cell: "001", Host: "stor2", Status: rundir.StepFailed, Detail: "sftp: denied"},
		{Time: at(3), Step: "push-conf", Cell: "001", Host: "stor1", Status: rundir.StepOK, Detail: "3.0 s"},
		{Time: at(4), Step: "restore", Status: rundir.StepOK},
		{Time: at(5), Step: "run", Cell: "002", Status: rundir.StepStarted},
		{Time: at(9), Step: "lock", Status: rundir.StepSkipped},
	})
	want := []Step{
		{Name: "push-conf", Cell: "001", Host: "stor1", Status: "ok", Start: at(0), Duration: 3 * time.Second},
		{Name: "push-conf", Cell: "001", Host: "stor2", Status: "failed", Start: at(0.5), Duration: 1500 * time.Millisecond, Detail: "sftp: denied"},
		{Name: "restore", Status: "ok", Start: at(4)},
		{Name: "run", Cell: "002", Status: "unfinished", Start: at(5), Duration: 4 * time.Second},
		{Name: "lock", Status: "skipped", Start: at(9)},
	}
	if len(steps) != len(want) {
		t.Fatalf("steps = %+v", steps)
	}
	for i := range want {
		if steps[i] != want[i] {
			t.Errorf("step %d = %+v, want %+v", i, steps[i], want[i])
		}
	}
}
