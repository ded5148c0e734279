package decode

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"benchbed/plan"
)

// policyBed is a host with 8 object disks, a replicated ring and an EC ring
// of 6 replicas; tests append policy blocks and workloads.
const policyBed = `
testbed "t" {}
host "h1" {
  address = "127.0.0.1"
  roles   = ["object", "client"]
  disks "d" { names = ["d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8"] }
}
ring "object" {
  part_power = 8
  replicas   = 2
  disks      = "d"
}
ring "object-1" {
  part_power = 8
  replicas   = 6
  disks      = "d"
}
service "object-server" { role = "object" }
variant "v" {}
`

const twoPolicies = `
policy "rep2" {
  index   = 0
  default = true
  aliases = ["gold"]
}
policy "ec42" {
  index                   = 1
  type                    = "erasure_coding"
  ec_type                 = "liberasurecode_rs_vand"
  ec_num_data_fragments   = 4
  ec_num_parity_fragments = 2
  ec_object_segment_size  = 4194304
}
`

// policyWorkload is a workload w-NAME in policy (attr = the attribute text).
func policyWorkload(name, attr string) string {
	return `
workload "w-` + name + `" {
  ` + attr + `
  scenario = { sizes = [{ name = "s", size_min = 1, size_max = 1 }], initial_files = { s = 1 }, crud_profile = [0, 1, 0, 0], run_seconds = 1 }
  auth {
    url  = "http://127.0.0.1:8080/auth/v1.0"
    user = "a:b"
    key  = "k"
  }
}
`
}

func TestPolicyBlocks(t *testing.T) {
	tb, diags := loadTB(t, policyBed+twoPolicies+policyWorkload("ec", `policy = "ec42"`)+
		policyWorkload("gold", `policy = "gold"`+"\n  verify = false")+policyWorkload("none", ""))
	if diags != "" {
		t.Fatal(diags)
	}
	got := tb.StoragePolicies()
	want := []*plan.Policy{
		{Name: "rep2", Index: 0, Type: plan.PolicyReplication, Default: true, Aliases: []string{"gold"}, Declared: true},
		{Name: "ec42", Index: 1, Type: plan.PolicyErasureCoding, ECType: "liberasurecode_rs_vand", ECData: 4, ECParity: 2,
			ECSegmentSize: 4 << 20, Declared: true},
	}
	if d := cmp.Diff(want, got, cmpopts.IgnoreFields(plan.Policy{}, "DefRange")); d != "" {
		t.Errorf("policies (-want +got):\n%s", d)
	}
	if got[1].ECReplicas() != 6 || got[1].RingName() != "object-1" || got[0].RingName() != "object" {
		t.Errorf("ec42: replicas %d ring %s; rep2 ring %s", got[1].ECReplicas(), got[1].RingName(), got[0].RingName())
	}
	ec, gold, none := tb.Workload("w-ec"), tb.Workload("w-gold"), tb.Workload("w-none")
	if ec.Policy != "ec42" || !ec.Verify || !strings.Contains(string(ec.ScenarioJSON), `"policy":"ec42"`) {
		t.Errorf("w-ec: policy %q verify %v scenario %s", ec.Policy, ec.Verify, ec.ScenarioJSON)
	}
	if gold.Policy != "gold" || gold.Verify || tb.Policy(gold.Policy) != got[0] {
		t.Errorf("w-gold: policy %q verify %v", gold.Policy, gold.Verify)
	}
	if none.Policy != "" || none.Verify || tb.Policy("") != got[0] {
		t.Errorf("w-none: policy %q verify %v", none.Policy, none.Verify)
	}
}

func TestPoliciesDerivedFromRings(t *testing.T) {
	tb, diags := loadTB(t, policyBed+policyWorkload("x", ""))
	if diags != "" {
		t.Fatal(diags)
	}
	var names []string
	for _, p := range tb.StoragePolicies() {
		names = append(names, p.Name+"/"+p.RingName())
	}
	if got := strings.Join(names, " "); got != "Policy-0/object Policy-1/object-1" {
		t.Errorf("derived policies: %s", got)
	}
}

func TestPolicyErrors(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string // each a diagnostic: "[FILE:LINE,COL: ]summary; detail"
	}{
		{"ec replicas", strings.Replace(twoPolicies, "ec_num_parity_fragments = 2", "ec_num_parity_fragments = 3", 1),
			[]string{`tb.hcl:13,1: EC ring replicas; ring "object-1" of policy "ec42" has replicas = 6; Swift requires exactly 7 (4 data + 3 parity, x1 duplication)`}},
		{"too few devices", strings.Replace(strings.Replace(twoPolicies, "ec_num_data_fragments   = 4", "ec_num_data_fragments = 7", 1),
			"ec_num_parity_fragments = 2", "ec_num_parity_fragments = 2\n  ec_duplication_factor = 1", 1),
			[]string{"Too few devices for EC; ring \"object-1\" of policy \"ec42\" has 8 devices; its 9 fragments need at least 9"}},
		{"two defaults", strings.Replace(twoPolicies, `ec_type `, "default = true\n  ec_type ", 1),
			[]string{"Several default policies"}},
		{"no default", strings.Replace(twoPolicies, "default = true", "", 1), []string{"No default policy"}},
		{"duplicate name", strings.Replace(twoPolicies, `aliases = ["gold"]`, `aliases = ["EC42"]`, 1),
			[]string{`Duplicate policy name; policy "ec42": the name "ec42" is already policy "rep2"'s`}},
		{"bad ec_type", strings.Replace(twoPolicies, "liberasurecode_rs_vand", "reed_solomon", 1), []string{"Invalid value for ec_type"}},
		{"ec attr on replication", strings.Replace(twoPolicies, "default = true", "default = true\n  ec_type = \"isa_l_rs_vand\"", 1),
			[]string{"tb.hcl:24,3: EC setting on a replicated policy"}},
		{"missing ec fields", strings.Replace(twoPolicies, "ec_num_data_fragments   = 4\n", "", 1),
			[]string{"Missing ec_num_data_fragments"}},
		{"no index 0", strings.Replace(twoPolicies, "index   = 0", "index   = 2", 1),
			[]string{"No policy with index 0", `Policy without ring; policy "rep2" (index 2) needs a ring "object-2" block`}},
		{"bad name", strings.Replace(twoPolicies, `policy "rep2"`, `policy "rep_2"`, 1), []string{"Invalid policy name"}},
		{"unknown workload policy", twoPolicies + policyWorkload("x", `policy = "silver"`),
			[]string{`Unknown storage policy; workload "w-x" names policy "silver", which is no policy of this testbed (known: rep2, gold, ec42)`}},
		{"isa-l unsafe", strings.Replace(strings.Replace(twoPolicies, "liberasurecode_rs_vand", "isa_l_rs_vand", 1), "ec_num_parity_fragments = 2", "ec_num_parity_fragments = 5", 1),
			[]string{"Unsafe EC configuration"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := policyBed + c.text
			if !strings.Contains(c.text, "workload") {
				text += policyWorkload("w", "")
			}
			_, diags := loadTB(t, text)
			flat := strings.Join(strings.Fields(diags), " ")
			for _, w := range c.want {
				if !strings.Contains(flat, strings.Replace(w, "; ", " ", 1)) {
					t.Errorf("diagnostics lack %q:\n%s", w, diags)
				}
			}
		})
	}
}

func TestWorkloadEndpoints(t *testing.T) {
	tb, diags := loadTB(t, policyBed+policyWorkload("e", `endpoints = ["http://10.0.0.1:8080/auth/v1.0", "http://10.0.0.2:8080/auth/v1.0"]`))
	if diags != "" {
		t.Fatal(diags)
	}
	w := tb.Workload("w-e")
	got := []string{w.AgentEndpoint(0), w.AgentEndpoint(1), w.AgentEndpoint(2), w.AgentAuth(3).URL}
	want := []string{"http://10.0.0.1:8080/auth/v1.0", "http://10.0.0.2:8080/auth/v1.0", "http://10.0.0.1:8080/auth/v1.0", "http://10.0.0.2:8080/auth/v1.0"}
	if d := cmp.Diff(want, got); d != "" || w.Auth.URL != "http://127.0.0.1:8080/auth/v1.0" {
		t.Errorf("agent endpoints (-want +got):\n%s (workload auth %s)", d, w.Auth.URL)
	}
	tb, _ = loadTB(t, policyBed+policyWorkload("one", ""))
	if u := tb.Workload("w-one").EndpointURLs(); len(u) != 1 || u[0] != "http://127.0.0.1:8080/auth/v1.0" {
		t.Errorf("default endpoints %v", u)
	}
	_, diags = loadTB(t, policyBed+policyWorkload("bad", `endpoints = ["ftp://x", "http://a/", "http://a/"]`))
	for _, w := range []string{`endpoint "ftp://x" is no http:// or https:// URL`, "Duplicate"} {
		if !strings.Contains(diags, w) {
			t.Errorf("diagnostics lack %q:\n%s", w, diags)
		}
	}
}
