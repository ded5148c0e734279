package schedule

import (
	"slices"
	"testing"
)

// checkKinds fails t when p has a kind that RunWide or PerCell does not
// declare, or one out of their order (fault-apply and fault-undo excepted:
// they alternate by their times): the sweep implements exactly the
// declared kinds, in their order, and runs those a plan gives it.
func checkKinds(t *testing.T, p *Schedule) {
	t.Helper()
	inOrder(t, "run-wide", append(Kinds(p.Before), StepCells), RunWide)
	for _, c := range p.Cells {
		inOrder(t, "cell "+c.Cell.ID, Kinds(c.Steps), PerCell)
	}
}

func inOrder(t *testing.T, what string, kinds, declared []Kind) {
	t.Helper()
	last := -1
	for _, k := range kinds {
		i := slices.Index(declared, k)
		switch {
		case i < 0:
			t.Errorf("%s: kind %q is not declared (RunWide, PerCell)", what, k)
		case k == StepFaultApply || k == StepFaultUndo:
		case i < last:
			t.Errorf("%s: kind %q after %q, against the declared order %v", what, k, declared[last], declared)
		default:
			last = i
		}
	}
}
