package sweep

import (
	"testing"

	"benchbed/plan/schedule"
)

// TestUnchangedKinds: a trusted cell skips the ring and conf checks the
// schedule marks unchanged, and only those; an untrusted one skips none.
func TestUnchangedKinds(t *testing.T) {
	steps := []schedule.Step{
		{Kind: schedule.StepRecord},
		{Kind: schedule.StepRingPorts, Unchanged: true},
		{Kind: schedule.StepPushConf, Service: "object-server"},
		{Kind: schedule.StepRestart, Service: "object-server"},
	}
	got := unchangedKinds(steps, true)
	if !got[schedule.StepRingPorts] || got[schedule.StepPushConf] || got[schedule.StepRestart] {
		t.Errorf("trusted: skip %v, want ring-ports only", got)
	}
	steps[2] = schedule.Step{Kind: schedule.StepPushConf, Unchanged: true}
	if got := unchangedKinds(steps, true); !got[schedule.StepRingPorts] || !got[schedule.StepPushConf] {
		t.Errorf("trusted, nothing changes: skip %v, want ring-ports and push-conf", got)
	}
	if got := unchangedKinds(steps, false); len(got) != 0 && (got[schedule.StepRingPorts] || got[schedule.StepPushConf]) {
		t.Errorf("untrusted: skip %v, want nothing", got)
	}
	two := []schedule.Step{{Kind: schedule.StepRingPorts, Ring: "object"}, {Kind: schedule.StepRingPorts, Unchanged: true}}
	if unchangedKinds(two, true)[schedule.StepRingPorts] {
		t.Error("a cell with one changed ring must check the rings")
	}
}
