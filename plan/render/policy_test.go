package render

import (
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/plan/decode"
)

// The lab's policies are rendered into every host's swift.conf as Swift
// parses them (TestRenderedConfsAcceptedBySwift loads them with Swift's
// own code): every key of each policy, default only on policy 0.
func TestPolicyLayerRendersEveryPolicy(t *testing.T) {
	tb, diags := decode.Load("../../testbeds/lab/policies-lab.hcl", decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	r, err := Render(tb, tb.Variant("normal"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := r.Conf("proxy1", SwiftConfPath)
	if c == nil {
		t.Fatal("no swift.conf on proxy1")
	}
	got := string(c.File.Bytes())
	for sec, keys := range map[string][]string{
		"storage-policy:0": {"name = rep2", "aliases = replicated", "policy_type = replication", "default = yes"},
		"storage-policy:1": {"name = ec42", "policy_type = erasure_coding", "default = no", "ec_type = liberasurecode_rs_vand",
			"ec_num_data_fragments = 4", "ec_num_parity_fragments = 2", "ec_object_segment_size = 1048576"},
		"storage-policy:2": {"name = ec62", "default = no", "ec_num_data_fragments = 6", "ec_num_parity_fragments = 2"},
	} {
		for _, kv := range keys {
			k, v, _ := strings.Cut(kv, " = ")
			if got, ok := c.File.Value(sec, k); !ok || got != v {
				t.Errorf("[%s] %s = %q (set %v), want %q", sec, k, got, ok, v)
			}
		}
	}
	if strings.Contains(got, "Policy-0") || strings.Contains(got, "ec_duplication_factor") {
		t.Errorf("the template's Policy-0 is left, or an unset key rendered:\n%s", got)
	}
}

// Per-policy proxy sections are checked against the policies: one of no
// policy (the proxy would not start), a key Swift does not override per
// policy, and an EC-only key on a replicated policy each warn.
func TestPolicySettingsWarnings(t *testing.T) {
	tb, diags := decode.Load("../../testbeds/lab/policies-lab.hcl", decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	s := tb.Service("proxy-server")
	set := func(sec, key, v string) {
		if s.Settings[sec] == nil {
			s.Settings[sec] = map[string]plan.Setting{}
		}
		s.Settings[sec][key] = plan.Setting{Value: v}
	}
	set("proxy-server:policy:7", "concurrent_gets", "true")
	set("proxy-server:policy:1", "node_timeout", "3")
	set("proxy-server:policy:0", "concurrent_ec_extra_requests", "1")
	set("proxy-server:policy:2", "concurrent_ec_extra_requests", "1")
	r, err := Render(tb, tb.Variant("normal"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, w := range r.Warnings {
		msgs = append(msgs, w.String())
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"[proxy-server:policy:7]", "refuses to start",
		"[proxy-server:policy:1] node_timeout", "cannot override node_timeout",
		"[proxy-server:policy:0] concurrent_ec_extra_requests", "replicated"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "policy:2] concurrent_ec_extra_requests") || strings.Contains(all, "reconstructor") {
		t.Errorf("an EC policy's concurrent_ec_extra_requests warned:\n%s", all)
	}
}

// A policy changed between two renderings (another testbed, or the hosts'
// swift.conf as it is) shows in the diff of every host's swift.conf.
func TestDiffCoversPolicies(t *testing.T) {
	tb, diags := decode.Load("../../testbeds/lab/policies-lab.hcl", decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	a, err := Render(tb, tb.Variant("normal"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	tb.Policy("ec42").ECSegmentSize = 4 << 20
	b, err := Render(tb, tb.Variant("normal"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := DiffRenderings(a, b)
	var out strings.Builder
	if err := d.WriteText(&out, tb.Secrets()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{SwiftConfPath, "storage-policy:1", "ec_object_segment_size", "1048576", "4194304"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("diff lacks %q:\n%s", want, out.String())
		}
	}
}

// Without an EC policy, object-reconstructor settings warn (Swift's
// reconstructor only rebuilds EC fragments), and so does an EC-only proxy
// option.
func TestECSettingsWithoutECPolicy(t *testing.T) {
	tb, diags := decode.Load("../../testbeds/lab/lab.hcl", decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	tb.Service("object-server").Settings["object-reconstructor"] = map[string]plan.Setting{"concurrency": {Value: "4"}}
	tb.Service("proxy-server").Settings["app:proxy-server"] = map[string]plan.Setting{"concurrent_ec_extra_requests": {Value: "2"}}
	r, err := Render(tb, tb.Variant("normal"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, w := range r.Warnings {
		msgs = append(msgs, w.String())
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"[object-reconstructor] concurrency", "no EC policy", "[app:proxy-server] concurrent_ec_extra_requests", "has none"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
}

// A host's swift.conf whose policy 1 is replicated conflicts with the
// lab's EC policy 1, and one with a policy the testbed lacks is named.
func TestPolicyConflicts(t *testing.T) {
	tb, diags := decode.Load("../../testbeds/lab/policies-lab.hcl", decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	live := "[swift-hash]\nswift_hash_path_suffix = x\n\n[storage-policy:0]\nname = Policy-0\ndefault = yes\n\n" +
		"[storage-policy:1]\nname = silver\n\n[storage-policy:2]\nname = ec62\npolicy_type = erasure_coding\n\n[storage-policy:5]\nname = old\n"
	got, err := PolicyConflicts(tb, "stor1:/etc/swift/swift.conf", []byte(live))
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(got, "\n")
	if len(got) != 2 || !strings.Contains(all, "policy 1 is replication (silver) there, and the testbed makes it erasure_coding (ec42)") ||
		!strings.Contains(all, "policy 5 (old, replication) is not in the testbed") {
		t.Errorf("conflicts:\n%s", all)
	}
	// The testbed's own rendering has none.
	r, err := Render(tb, tb.Variant("normal"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := PolicyConflicts(tb, "own", r.Conf("stor1", SwiftConfPath).File.Bytes()); err != nil || got != nil {
		t.Errorf("own swift.conf: %v %v", got, err)
	}
}
