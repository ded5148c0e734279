package decode

import (
	"os/exec"
	"strings"
	"testing"

	"benchbed/plan"
)

// The probe of each EC policy runs here against Debian's PyECLib: it
// succeeds for a backend liberasurecode carries and fails, naming the
// problem, for one whose library is missing or a shape it refuses.
func TestECProbeCommand(t *testing.T) {
	if out, err := exec.Command(plan.SystemPython, "-c", "import pyeclib.ec_iface").CombinedOutput(); err != nil {
		t.Skipf("SKIP: no PyECLib (%v %s); scripts/deps.sh installs python3-pyeclib", err, out)
	}
	ok := &plan.Policy{Type: plan.PolicyErasureCoding, ECType: "liberasurecode_rs_vand", ECData: 4, ECParity: 2}
	if out, err := exec.Command("sh", "-c", plan.ECProbeCommand(ok)).CombinedOutput(); err != nil {
		t.Fatalf("probe of 4+2 liberasurecode_rs_vand: %v\n%s", err, out)
	}
	bad := &plan.Policy{Type: plan.PolicyErasureCoding, ECType: "liberasurecode_rs_vand", ECData: 40, ECParity: 30}
	if out, err := exec.Command("sh", "-c", plan.ECProbeCommand(bad)).CombinedOutput(); err == nil {
		t.Fatalf("probe of 40+30 succeeded: %s", out)
	}
	if plan.ECProbeCommand(&plan.Policy{Type: plan.PolicyReplication}) != "" {
		t.Error("a replicated policy has a probe")
	}
}

func TestECHostsAndPackages(t *testing.T) {
	tb, diags := loadTB(t, policyBed+strings.Replace(twoPolicies, "liberasurecode_rs_vand", "isa_l_rs_vand", 1)+policyWorkload("w", ""))
	if diags != "" {
		t.Fatal(diags)
	}
	if hs := tb.ECHosts(); len(hs) != 1 || hs[0].Name != "h1" {
		t.Errorf("EC hosts %v", hs)
	}
	if got := strings.Join(tb.ECPackageList(), " "); got != "python3-pyeclib liberasurecode1 libisal2" {
		t.Errorf("EC packages %s", got)
	}
	if n := len(tb.ECProbes()); n != 1 {
		t.Errorf("%d probes, want 1", n)
	}
}
