package cluster

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"benchbed/internal/labtest"
	"benchbed/plan"
	"benchbed/plan/render"
)

func policiesTestbed(t *testing.T) *plan.Testbed {
	t.Helper()
	return labtest.Testbed(t, "lab/policies-lab.hcl")
}

// TestPoliciesAdded: a swift.conf without the testbed's policies 1 and 2
// (or none at all) is refused for each, by index and name; policy 0 always
// exists; one with them is fine.
func TestPoliciesAdded(t *testing.T) {
	tb := policiesTestbed(t)
	old := "[swift-hash]\nswift_hash_path_suffix = x\n\n[storage-policy:0]\nname = rep2\ndefault = yes\n\n[storage-policy:2]\nname = ec62\npolicy_type = erasure_coding\n"
	got, err := PoliciesAdded(tb, "stor1:/etc/swift/swift.conf", []byte(old))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !strings.Contains(got[0], "stor1:/etc/swift/swift.conf has no storage policy 1 (ec42)") ||
		!strings.Contains(got[0], "benchbed setup") {
		t.Errorf("problems %q; want policy 1 (ec42) only, with the way out", got)
	}
	if got, _ := PoliciesAdded(tb, "h", nil); len(got) != 2 {
		t.Errorf("no swift.conf: %q; want policies 1 and 2", got)
	}
	full := old + "\n[storage-policy:1]\nname = ec42\npolicy_type = erasure_coding\n"
	if got, _ := PoliciesAdded(tb, "h", []byte(full)); got != nil {
		t.Errorf("every policy there: %q; want none", got)
	}
	tb.Policies = nil // Policy-0 and, implicitly, Policy-N of each ring object-N
	if got, _ := PoliciesAdded(tb, "h", []byte("[swift-hash]\n")); len(got) != 2 || !strings.Contains(got[0], "policy 1 (Policy-1)") {
		t.Errorf("a testbed without policy blocks, rings object-1 and object-2: %q; want Policy-1 and Policy-2", got)
	}
	tb.Rings = slices.DeleteFunc(tb.Rings, func(r *plan.Ring) bool { return strings.HasPrefix(r.Name, "object-") })
	if got, _ := PoliciesAdded(tb, "h", []byte("[swift-hash]\n")); len(got) != 0 {
		t.Errorf("a testbed of policy 0 only: %q; want none", got)
	}
}

// TestECProbes: one probe per EC shape, naming its policies.
func TestECProbes(t *testing.T) {
	tb := policiesTestbed(t)
	ps := ecProbes(tb)
	if len(ps) != 2 || !slices.Equal(ps[0].Policies, []string{"ec42 (liberasurecode_rs_vand 4+2)"}) ||
		!strings.Contains(ps[1].Command, "k=6, m=2") {
		t.Errorf("probes %+v; want ec42's and ec62's", ps)
	}
}

// TestCheckPoliciesOnHosts: on hosts run by the local shell, a swift.conf
// that has policy 1 replicated is refused naming the host and both types
// before anything else; with the testbed's own policies the EC probes run
// through this machine's PyECLib (liberasurecode_rs_vand loads), and one
// whose backend is not there (libphazr, a vendor library) fails naming the
// host, the policy and PyECLib's error.
func TestCheckPoliciesOnHosts(t *testing.T) {
	if _, err := os.Stat(plan.SystemPython); err != nil {
		t.Skip("no " + plan.SystemPython)
	}
	if err := exec.Command(plan.SystemPython, "-c", "import pyeclib.ec_iface").Run(); err != nil {
		t.Skip("no PyECLib here (python3-pyeclib, scripts/deps.sh)")
	}
	tb := policiesTestbed(t)
	hosts := Names(ServiceHosts(tb))
	sh := labtest.NewShell(t, hosts...)
	sh.Paths[render.SwiftConfPath] = "swift.conf"
	conf := "[storage-policy:0]\nname = rep2\ndefault = yes\n\n[storage-policy:1]\nname = old\n"
	must(t, os.WriteFile(filepath.Join(sh.Root("stor2"), "swift.conf"), []byte(conf), 0o644))
	err := CheckPolicies(context.Background(), sh, tb)
	if err == nil || !strings.Contains(err.Error(), "stor2:/etc/swift/swift.conf: policy 1 is replication (old)") ||
		!strings.Contains(err.Error(), "erasure_coding (ec42)") || strings.Contains(err.Error(), "proxy1") {
		t.Fatalf("err = %v; want stor2's policy 1 named, replication there and erasure_coding in the testbed", err)
	}
	must(t, os.Remove(filepath.Join(sh.Root("stor2"), "swift.conf")))
	if err := CheckPolicies(context.Background(), sh, tb); err != nil {
		t.Fatalf("no swift.conf, liberasurecode_rs_vand: %v", err)
	}
	tb.Policies[2].ECType = "libphazr"
	err = CheckPolicies(context.Background(), sh, tb)
	for _, h := range Names(tb.ECHosts()) {
		if err == nil || !strings.Contains(err.Error(), h+": policy ec62 (libphazr 6+2): PyECLib cannot build its driver") {
			t.Errorf("err = %v; want %s's ec62 named", err, h)
		}
	}
	if err != nil && !strings.Contains(err.Error(), "pyeclib") {
		t.Errorf("err = %v; want PyECLib's words about the backend", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
