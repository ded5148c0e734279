package rundir

import (
	"testing"
	"time"
)

func TestPairStepsStartsWithOutcomes(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	steps := PairSteps([]Entry{
		{Time: at(0), Step: "push-conf", Cell: "001", Host: "stor1", Status: StepStarted},
		{Time: at(0.5), Step: "push-conf", Cell: "001", Host: "stor2", Status: StepStarted},
		{Time: at(2), Step: "push-conf", Cell: "001", Host: "stor2", Status: StepFailed, Detail: "sftp: denied"},
		{Time: at(3), Step: "push-conf", Cell: "001", Host: "stor1", Status: StepOK, Detail: "3.0 s"},
		{Time: at(4), Step: "restore", Status: StepOK},
		{Time: at(5), Step: "run", Cell: "002", Status: StepStarted},
		{Time: at(9), Step: "lock", Status: StepSkipped},
	})
	want := []JournalStep{
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
