package decode

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/plan/lang"
)

// variantsBase has four variants of three blocks (normal; timing, renamed
// sorting_method=timing; servers_per_port's two for_each points) and a
// workload "all" on every one; a test's workload "w" follows it from
// line variantsLine (its first attribute: the body's first line).
const variantsBase = `testbed "v" {}
host "h1" {
  address = "127.0.0.1"
  roles   = ["object", "client"]
  disks "d" { names = ["d1", "d2"] }
}
ring "object" {
  part_power = 8
  disks      = "d"
}
service "object-server" { role = "object" }
variant "normal" {}
variant "timing" {
  name = "sorting_method=timing"
  set "object-server" { DEFAULT = { workers = 3 } }
}
variant "servers_per_port" {
  for_each = [1, 2]
  name     = "servers_per_port=${each.value}"
  set "object-server" { DEFAULT = { servers_per_port = each.value } }
  ring "object" { port_per_disk = true }
}
workload "all" {
  scenario    = { sizes = [{ name = "s", size_min = 1, size_max = 1 }], initial_files = { s = 1 }, crud_profile = [0, 1, 0, 0], run_seconds = 10 }
  storage_url = "http://127.0.0.1:8080/v1/AUTH_a"
  token       = "t"
}
workload "w" {
  scenario    = { sizes = [{ name = "s", size_min = 1, size_max = 1 }], initial_files = { s = 1 }, crud_profile = [0, 1, 0, 0], run_seconds = 10 }
  storage_url = "http://127.0.0.1:8080/v1/AUTH_a"
  token       = "t"
%s
}
`

// variantsLine is the line of variantsBase's %s.
const variantsLine = 32

// loadVariants loads variantsBase with body in workload "w" and returns
// the testbed and its diagnostics as FILE:LINE,COL lines.
func loadVariants(t *testing.T, body string) (*plan.Testbed, string) {
	t.Helper()
	return loadVariantsText(t, strings.Replace(variantsBase, "%s", body, 1))
}

func loadVariantsText(t *testing.T, text string) (*plan.Testbed, string) {
	t.Helper()
	tb, diags := LoadSource(filepath.Join(t.TempDir(), "v.hcl"), []byte(text), LoadOptions{})
	var b strings.Builder
	_ = lang.WriteDiagnostics(&b, nil, diags)
	return tb, b.String()
}

func TestWorkloadVariants(t *testing.T) {
	for _, tt := range []struct{ body, want string }{
		{`variants = ["normal", "sorting_method=timing"]`, "normal sorting_method=timing"},
		// The list's order does not matter: the declaration's does.
		{`variants = ["servers_per_port=2", "normal"]`, "normal servers_per_port=2"},
		// A block's label selects its variants: a for_each's points, a renamed one.
		{`variants = ["servers_per_port"]`, "servers_per_port=1 servers_per_port=2"},
		{`variants = ["timing", "normal"]`, "normal sorting_method=timing"},
	} {
		tb, diags := loadVariants(t, tt.body)
		if diags != "" {
			t.Errorf("%s: %s", tt.body, diags)
			continue
		}
		w := tb.Workload("w")
		if got := strings.Join(w.Variants, " "); got != tt.want {
			t.Errorf("%s: variants %q, want %q", tt.body, got, tt.want)
		}
		var on []string
		for _, v := range tb.VariantsOf(w) {
			on = append(on, v.Name)
		}
		if strings.Join(on, " ") != tt.want || tb.Workload("all").Variants != nil || len(tb.VariantsOf(tb.Workload("all"))) != 4 {
			t.Errorf("%s: VariantsOf(w) %q, all's %q", tt.body, on, tb.Workload("all").Variants)
		}
	}
}

func TestWorkloadVariantsErrors(t *testing.T) {
	at := func(summary string) string {
		return "v.hcl:" + strconv.Itoa(variantsLine) + ",12: " + summary
	}
	for _, tt := range []struct{ body, want string }{
		{`variants = []`, at("Empty variants")},
		{`variants = ["nope"]`, at("Unknown variant") + "\n" +
			`    workload "w": no variant is named "nope"; the variants are "normal", "sorting_method=timing", "servers_per_port=1", "servers_per_port=2" (block labels, each selecting its block's variants: "timing", "servers_per_port")`},
		{`variants = ["normal", "normal"]`, at("Duplicate variant") + "\n" + `    workload "w": variant "normal" is listed twice`},
		{`variants = ["servers_per_port", "servers_per_port=1"]`, `variant "servers_per_port=1" is selected twice (by "servers_per_port" and by "servers_per_port=1")`},
		{`variants = "normal"`, "v.hcl:" + strconv.Itoa(variantsLine) + ",12: Invalid value for variants"},
		{"variants = [\"normal\"]\nrepeat = \"auto\"", at(`Too few variants for repeat = "auto"`)},
	} {
		_, diags := loadVariants(t, tt.body)
		if !strings.Contains(diags, tt.want) {
			t.Errorf("%s: diagnostics\n%s\nwant %q", tt.body, diags, tt.want)
		}
	}
	// Two of them: the baseline and one to compare with it.
	if _, diags := loadVariants(t, "variants = [\"normal\", \"servers_per_port=2\"]\nrepeat = \"auto\""); diags != "" {
		t.Errorf("repeat auto on two variants: %s", diags)
	}
}

// TestForEachWorkloadVariants: each axis point may run on variants of
// its own.
func TestForEachWorkloadVariants(t *testing.T) {
	tb, diags := loadVariantsText(t, strings.Replace(strings.Replace(variantsBase, "%s", "", 1), "workload \"w\" {", `workload "per" {
  for_each    = ["normal", "sorting_method=timing"]
  variants    = [each.value]
  scenario    = { sizes = [{ name = "s", size_min = 1, size_max = 1 }], initial_files = { s = 1 }, crud_profile = [0, 1, 0, 0], run_seconds = 10 }
  storage_url = "http://127.0.0.1:8080/v1/AUTH_a"
  token       = "t"
}
workload "w" {`, 1))
	if diags != "" {
		t.Fatal(diags)
	}
	var ids []string
	for _, c := range plan.Expand(tb) {
		if c.Workload.Block == "per" {
			ids = append(ids, c.ID)
		}
	}
	if want := []string{"002-normal-per_normal-r1", "005-sorting_method_timing-per_sorting_method_timing-r1"}; !slices.Equal(ids, want) {
		t.Errorf("the axis points' cells %q, want %q", ids, want)
	}
}

// TestVariantNoWorkloadRunsOn: a variant every workload's variants leave
// out is a warning at its block, and --only refuses it.
func TestVariantNoWorkloadRunsOn(t *testing.T) {
	text := strings.Replace(variantsBase, "%s", `variants = ["normal"]`, 1)
	text = strings.Replace(text, "workload \"all\" {\n", "workload \"all\" {\n  variants = [\"normal\", \"servers_per_port\"]\n", 1)
	tb, diags := loadVariantsText(t, text)
	if !strings.Contains(diags, `v.hcl:13,1: warning: Variant runs no workload`) || strings.Count(diags, "Variant runs no workload") != 1 {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	if err := tb.CheckOnly([]string{"normal", "sorting_method=timing"}); err == nil || !strings.Contains(err.Error(), "--only sorting_method=timing: no workload of") {
		t.Errorf("--only of a variant no workload runs on: %v", err)
	}
	if err := tb.CheckOnly([]string{"nope"}); err == nil || !strings.Contains(err.Error(), "no such variant") {
		t.Errorf("--only of no variant: %v", err)
	}
	if err := tb.CheckOnly([]string{"servers_per_port=1"}); err != nil {
		t.Errorf("--only servers_per_port=1: %v", err)
	}
	if sw := tb.Swept([]string{"servers_per_port=1"}); len(sw.Workloads) != 1 || sw.Workloads[0].Name != "all" || len(tb.Workloads) != 2 {
		t.Errorf("Swept(servers_per_port=1): %d workloads", len(sw.Workloads))
	}
	if sw := tb.Swept(nil); len(sw.Workloads) != 2 {
		t.Errorf("Swept(nil): %d workloads", len(sw.Workloads))
	}
}

// TestFaultTimesOfTheVariantsWorkloads: a fault is checked against the
// runs of its variant's workloads only: a workload of no fixed length
// that does not run on it is no error.
func TestFaultTimesOfTheVariantsWorkloads(t *testing.T) {
	counted := `variant "normal" {}
variant "v" {
  ` + multiline(`fault "pause" { hosts = ["stor1"]  service = "object-server"  at = 1  for = 1 }`) + `
}
workload "counted" {
  scenario        = { sizes = [{ name = "s", size_min = 1, size_max = 1 }], initial_files = { s = 1 }, crud_profile = [0, 1, 0, 0], run_seconds = 60 }
  operation_count = 100
  storage_url     = "http://10.0.0.1:8080/v1/AUTH_a"
  token           = "t"
%s}
`
	if _, diags := loadDiags(t, faultsBase+strings.Replace(counted, "%s", "", 1)); !strings.Contains(diags, "run of no fixed length") {
		t.Errorf("a counted workload on the fault's variant: %q", diags)
	}
	if _, diags := loadDiags(t, faultsBase+strings.Replace(counted, "%s", "  variants = [\"normal\"]\n", 1)); diags != "" {
		t.Errorf("a counted workload beside the fault's variant: %s", diags)
	}
}

// TestCommandWorkloadVariants: a command workload takes variants too.
func TestCommandWorkloadVariants(t *testing.T) {
	tb := mustLoad(t, seed004+`workload "w" {
  command  = "x"
  parser   = "curl"
  variants = ["sendfile-off"]
}
workload "both" {
  command = "x"
  parser  = "curl"
}`, LoadOptions{}, nil)
	var ids []string
	for _, c := range plan.Expand(tb) {
		ids = append(ids, c.ID)
	}
	if want := []string{"001-sendfile-on-both-r1", "002-sendfile-off-w-r1", "003-sendfile-off-both-r1"}; !slices.Equal(ids, want) {
		t.Errorf("cells %q, want %q", ids, want)
	}
	_, diags := loadDiags(t, seed004+`workload "w" {
  command  = "x"
  parser   = "curl"
  variants = ["sendfile"]
}`)
	if !strings.Contains(diags, `Unknown variant: workload "w": no variant is named "sendfile"; the variants are "sendfile-on", "sendfile-off"`) {
		t.Errorf("diagnostics %q", diags)
	}
}
