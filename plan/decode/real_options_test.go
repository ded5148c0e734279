package decode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealOptionsValidate replaces lab.hcl's services (its parts inlined) and variants with
// ones that set dozens of real, less common options of every server
// (testdata/options/real-services.hcl) and checks that the testbed
// validates with no error and no warning, against every carried catalog
// and against the union: a catalog that misses a real option would make
// a user list it in unchecked.
func TestRealOptionsValidate(t *testing.T) {
	labTB, diags := Load("../../testbeds/lab/lab.hcl", LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	lab := labTB.Inlined() // the lab's parts in its text: the services to replace
	services, err := os.ReadFile("testdata/options/real-services.hcl")
	if err != nil {
		t.Fatal(err)
	}
	text := string(lab)
	head, rest := text[:strings.Index(text, "service \"")], text[strings.Index(text, "workload \""):]
	dir := t.TempDir()
	scen, err := os.ReadFile("../../testbeds/lab/64K_get_lab.scenario")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "64K_get_lab.scenario"), scen, 0o644); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(services), " = "); n < 120 {
		t.Fatalf("only %d settings: not the real-options testbed", n)
	}
	for _, version := range []string{"", "2.29.2", "2.30.1", "2.33.0", "2.35.0", "2.36.0"} {
		tb := head + string(services) + rest
		if version != "" {
			tb = strings.Replace(tb, "testbed \"lab\" {", "testbed \"lab\" {\n  swift_version = \""+version+"\"", 1)
		}
		p := filepath.Join(dir, "real.hcl")
		if err := os.WriteFile(p, []byte(tb), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, diags := Load(p, LoadOptions{}); len(diags) > 0 {
			t.Errorf("swift_version %q: %s", version, diags.Error())
		}
	}
}
