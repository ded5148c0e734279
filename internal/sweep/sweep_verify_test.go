package sweep

import (
	"testing"

	"benchbed/internal/agents"
	"benchbed/plan"
)

// TestFaultCellVerifies: the agents of a fault cell verify their GETs
// unless the workload says verify = false; the same workload in a cell
// without a fault does not; an erasure-coded workload verifies in both.
func TestFaultCellVerifies(t *testing.T) {
	fault := &plan.Variant{Name: "disk", Faults: []*plan.Fault{{Kind: plan.FaultFailDisk}}}
	normal := &plan.Variant{Name: "normal"}
	for _, c := range []struct {
		w          *plan.Workload
		v          *plan.Variant
		want       bool
		name, what string
	}{
		{&plan.Workload{}, fault, true, "default", "fault cell"},
		{&plan.Workload{}, normal, false, "default", "cell without a fault"},
		{&plan.Workload{VerifyWhy: plan.VerifyGivenOff}, fault, false, "verify = false", "fault cell"},
		{&plan.Workload{Verify: true, VerifyWhy: plan.VerifyEC}, normal, true, "erasure-coded", "cell without a fault"},
		{&plan.Workload{Verify: true, VerifyWhy: plan.VerifyEC}, fault, true, "erasure-coded", "fault cell"},
	} {
		if got := withEndpoints(agents.Job{}, c.w, c.v).Verify; got != c.want {
			t.Errorf("%s workload in a %s: agents verify %v, want %v", c.name, c.what, got, c.want)
		}
	}
}
