package schedule

import (
	"strings"
	"testing"

	"benchbed/plan/decode"
)

// The plan lists every storage policy with its type, shape and ring.
func TestPlanTextListsPolicies(t *testing.T) {
	tb, diags := decode.Load("../../testbeds/lab/policies-lab.hcl", decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var b strings.Builder
	writePolicies(&b, tb)
	want := "\npolicies:\n" +
		"  0 rep2: replication, ring object, default, aliases replicated\n" +
		"  1 ec42: erasure coding liberasurecode_rs_vand 4+2, segment 1048576 bytes, ring object-1\n" +
		"  2 ec62: erasure coding liberasurecode_rs_vand 6+2, segment 1048576 bytes, ring object-2\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
