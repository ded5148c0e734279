package sweep

import (
	"testing"

	"benchbed/plan/schedule"
)

// TestConfsAhead: a cell pushes its confs beside its ring switch only when
// it has both to do.
func TestConfsAhead(t *testing.T) {
	both := []string{schedule.StepRecord, schedule.StepRingPorts, schedule.StepPushConf, schedule.StepReload}
	for _, c := range []struct {
		kinds []string
		skip  map[string]bool
		want  bool
	}{
		{both, nil, true},
		{both, map[string]bool{schedule.StepRingPorts: true}, false},
		{both, map[string]bool{schedule.StepPushConf: true}, false},
		{[]string{schedule.StepPushConf, schedule.StepReload}, nil, false},
		{[]string{schedule.StepRingPorts, schedule.StepReload}, nil, false},
	} {
		if got := confsAhead(c.kinds, c.skip); got != c.want {
			t.Errorf("kinds %v, skip %v: ahead %v, want %v", c.kinds, c.skip, got, c.want)
		}
	}
}
