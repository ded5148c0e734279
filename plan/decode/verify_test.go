package decode

import "testing"

// verifyFault is a variant that stops the object server during each run.
const verifyFault = `
variant "stopped" {
  fault "stop" {
    hosts   = ["h1"]
    service = "object-server"
    at      = 0
    for     = 1
  }
}
`

// TestVerifyDefaults: verify is on for an erasure-coded workload and in a
// fault cell, off otherwise, and the workload's verify = false wins over
// both; VerifyText says which and why.
func TestVerifyDefaults(t *testing.T) {
	tb, diags := loadTB(t, policyBed+twoPolicies+verifyFault+policyWorkload("ec", `policy = "ec42"`)+
		policyWorkload("ecoff", `policy = "ec42"`+"\n  verify = false")+policyWorkload("rep", `policy = "rep2"`)+
		policyWorkload("repon", `policy = "rep2"`+"\n  verify = true")+policyWorkload("repoff", "verify = false")+
		policyWorkload("set", `scenario_set = { policy = "ec42" }`))
	if diags != "" {
		t.Fatal(diags)
	}
	normal, fault := tb.Variant("v"), tb.Variant("stopped")
	for _, c := range []struct {
		w, v, want string
	}{
		{"w-ec", "v", "verify: on (erasure-coded policy)"},
		{"w-ec", "stopped", "verify: on (erasure-coded policy)"},
		{"w-ecoff", "v", "verify: off (verify = false)"},
		{"w-ecoff", "stopped", "verify: off (verify = false)"},
		{"w-rep", "v", "verify: off (default)"},
		{"w-rep", "stopped", "verify: on (fault cell)"},
		{"w-repon", "v", "verify: on (verify = true)"},
		{"w-repoff", "stopped", "verify: off (verify = false)"},
		{"w-set", "v", "verify: on (erasure-coded policy)"},
	} {
		v := normal
		if c.v == "stopped" {
			v = fault
		}
		w := tb.Workload(c.w)
		if got := w.VerifyText(v); got != c.want {
			t.Errorf("%s in variant %s: %q, want %q", c.w, c.v, got, c.want)
		}
		if on, _ := w.VerifyIn(v); on != (c.want[len("verify: o"):][0] == 'n') {
			t.Errorf("%s in variant %s: VerifyIn %v disagrees with %q", c.w, c.v, on, c.want)
		}
	}
	if !tb.Workload("w-ec").Verify || tb.Workload("w-rep").Verify {
		t.Errorf("Verify (the workload's, outside fault cells): ec %v rep %v, want true false",
			tb.Workload("w-ec").Verify, tb.Workload("w-rep").Verify)
	}
}

// TestVerifyDefaultPolicy: a workload naming no policy verifies when the
// cluster's default policy is erasure-coded.
func TestVerifyDefaultPolicy(t *testing.T) {
	ecDefault := `
policy "rep2" {
  index = 0
}
policy "ec42" {
  index                   = 1
  default                 = true
  type                    = "erasure_coding"
  ec_type                 = "liberasurecode_rs_vand"
  ec_num_data_fragments   = 4
  ec_num_parity_fragments = 2
}
`
	tb, diags := loadTB(t, policyBed+ecDefault+policyWorkload("none", ""))
	if diags != "" {
		t.Fatal(diags)
	}
	if got := tb.Workload("w-none").VerifyText(tb.Variant("v")); got != "verify: on (erasure-coded policy)" {
		t.Errorf("a workload in the default EC policy: %q", got)
	}
}
