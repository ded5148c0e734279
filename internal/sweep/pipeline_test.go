package sweep

import (
	"slices"
	"testing"

	"benchbed/plan/schedule"
)

// TestPipelineImplementsTheSchedule: the sweep's lists hold every kind the
// schedule declares, in its order, each with an implementation (the fault
// steps excepted: the run step's timer carries them out); a kind added to
// the schedule without one fails here, not in a sweep.
func TestPipelineImplementsTheSchedule(t *testing.T) {
	var wide, cell []schedule.Kind
	for _, ws := range runWide {
		if ws.run == nil {
			t.Errorf("run-wide step %s has no implementation", ws.kind)
		}
		wide = append(wide, ws.kind)
	}
	for _, cs := range perCell {
		timed := cs.kind == schedule.StepFaultApply || cs.kind == schedule.StepFaultUndo
		if (cs.run == nil) != timed {
			t.Errorf("cell step %s: implementation %v, want one unless the run's timer carries it out", cs.kind, cs.run != nil)
		}
		cell = append(cell, cs.kind)
	}
	if !slices.Equal(wide, schedule.RunWide) {
		t.Errorf("run-wide steps %v, the schedule's %v", wide, schedule.RunWide)
	}
	if !slices.Equal(cell, schedule.PerCell) {
		t.Errorf("cell steps %v, the schedule's %v", cell, schedule.PerCell)
	}
}
