package schedule

import (
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/plan/decode"
)

// planText is the text plan of a testbed file of the repository.
func planText(t *testing.T, file string) (string, PlanJSON) {
	t.Helper()
	tb, diags := decode.Load(file, decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	p := New(tb)
	var b strings.Builder
	if err := p.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	return b.String(), p.JSON()
}

// The plan says, for every workload, whether its GETs are verified and
// why; a fault cell's line says that its fault turns verify on.
func TestPlanShowsVerify(t *testing.T) {
	text, j := planText(t, "../../testbeds/lab/policies-lab.hcl")
	for _, want := range []string{
		"64K_put@rep2: scenario (inline), 16 users, 15s; axis put[0] = rep2; verify: off (default)\n",
		"64K_put@ec42: scenario (inline), 16 users, 15s; axis put[1] = ec42; verify: on (erasure-coded policy)\n",
		"; axis get[0] = rep2; verify: on (verify = true)\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("policies-lab's plan lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "(fault cell)") {
		t.Errorf("policies-lab has no fault, its plan says fault cell:\n%s", text)
	}
	for _, c := range j.Cells {
		if strings.HasPrefix(c.Workload, "64K_put@ec") && (!c.Verify || c.VerifyWhy != plan.VerifyEC) {
			t.Errorf("cell %s: verify %v (%s), want on for its EC policy", c.ID, c.Verify, c.VerifyWhy)
		}
	}
	text, j = planText(t, "../../testbeds/lab/faults-lab.hcl")
	if !strings.Contains(text, `workload "64K_put", repeat 1  (~`) || !strings.Contains(text, "; verify: on (fault cell)\n") ||
		!strings.Contains(text, "64K_put: scenario 64K_put_faults.scenario, 16 users, 1m0s; verify: off (default)\n") {
		t.Errorf("faults-lab's plan: want its workload off by default and its fault cells on:\n%s", text)
	}
	for _, c := range j.Cells {
		if !c.Verify || c.VerifyWhy != plan.VerifyFault {
			t.Errorf("fault cell %s: verify %v (%s), want on (fault cell)", c.ID, c.Verify, c.VerifyWhy)
		}
	}
}
