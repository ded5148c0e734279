package decode

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/lang"
)

// writeFiles writes files (name -> text) under a new directory and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// labPart is a lab described once: a variable, a local, its host and ring.
const labPart = `variable "addr" {
  default = "127.0.0.1"
}

locals {
  disks = ["d1", "d2"]
}

host "h1" {
  address = var.addr
  roles   = ["object", "client"]
  disks "d" { names = local.disks }
}

ring "object" {
  part_power = 8
  disks      = "d"
}

service "object-server" {
  role = "object"
}
`

// experiment includes lab.hcl (from parts/) and adds a workload.
var experiment = "testbed \"t\" {}\n\ninclude \"parts/lab.hcl\" {}\n\nvariant \"normal\" {}\n\n" + fixture("minimal.hcl")[strings.Index(fixture("minimal.hcl"), "workload"):]

// lineIn is the line of text where marker first stands.
func lineIn(text, marker string) int {
	return strings.Count(text[:strings.Index(text, marker)], "\n") + 1
}

// diagAt reports whether diags has an error whose summary is summary at
// file:line.
func diagAt(diags hcl.Diagnostics, summary, file string, line int) bool {
	for _, d := range diags {
		if d.Summary == summary && d.Subject != nil && d.Subject.Filename == file && d.Subject.Start.Line == line {
			return true
		}
	}
	return false
}

// TestIncludeOneTestbed: an experiment that includes its lab's part is one
// testbed: the part's variables (set with -var too) and locals serve both
// files, its blocks stand where the include is, and the files read are
// named in reading order.
func TestIncludeOneTestbed(t *testing.T) {
	dir := writeFiles(t, map[string]string{"exp.hcl": experiment, "parts/lab.hcl": labPart})
	root := filepath.Join(dir, "exp.hcl")
	tb, diags := Load(root, LoadOptions{Vars: map[string]string{"addr": "127.0.0.9"}})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	part := filepath.Join(dir, "parts", "lab.hcl")
	if !reflect.DeepEqual(tb.Sources, []string{root, part}) {
		t.Errorf("sources %q", tb.Sources)
	}
	if len(tb.Hosts) != 1 || tb.Hosts[0].Address != "127.0.0.9" || len(tb.Hosts[0].Disks[0].Disks) != 2 || len(tb.Workloads) != 1 {
		t.Fatalf("hosts %+v, workloads %d", tb.Hosts, len(tb.Workloads))
	}
	if tb.Hosts[0].DefRange.Filename != part || tb.Hosts[0].DefRange.Start.Line != 9 {
		t.Errorf("host defined at %s, want %s:9", tb.Hosts[0].DefRange, part)
	}
	if tb.Files[part] == nil || tb.Files[root] == nil {
		t.Errorf("files kept for diagnostics: %v", tb.Files)
	}
}

// TestIncludeDiagnosticsNameTheirFile: a problem in the included part is
// reported at its own file and line, a problem in the experiment at the
// experiment's.
func TestIncludeDiagnosticsNameTheirFile(t *testing.T) {
	badPart := strings.Replace(labPart, `roles   = ["object", "client"]`, `roles   = ["object", "client"]
  nonsense = 1`, 1)
	badExp := strings.Replace(experiment, `run_seconds = 1 }`, `run_seconds = 1 }
  users = "many"`, 1)
	dir := writeFiles(t, map[string]string{"exp.hcl": badExp, "parts/lab.hcl": badPart})
	_, diags := Load(filepath.Join(dir, "exp.hcl"), LoadOptions{})
	if n := lineIn(badPart, "nonsense"); !diagAt(diags, "Unsupported argument", filepath.Join(dir, "parts", "lab.hcl"), n) {
		t.Errorf("no error at parts/lab.hcl:%d:\n%s", n, diags.Error())
	}
	if n := lineIn(badExp, "users"); !hasErrorIn(diags, filepath.Join(dir, "exp.hcl"), n) {
		t.Errorf("no error at exp.hcl:%d:\n%s", n, diags.Error())
	}
}

// hasErrorIn reports whether diags has an error at file:line.
func hasErrorIn(diags hcl.Diagnostics, file string, line int) bool {
	for _, d := range diags {
		if d.Severity == hcl.DiagError && d.Subject != nil && d.Subject.Filename == file && d.Subject.Start.Line == line {
			return true
		}
	}
	return false
}

// TestIncludeDuplicateAcrossFiles: a host, a variable or an ssh block
// written in two files is an error at the second naming the first's file
// and line.
func TestIncludeDuplicateAcrossFiles(t *testing.T) {
	exp := strings.Replace(experiment, "include \"parts/lab.hcl\" {}\n", "include \"parts/lab.hcl\" {}\n\nvariable \"addr\" {}\n\nhost \"h1\" {\n  address = \"127.0.0.2\"\n  roles   = [\"client\"]\n}\n", 1)
	dir := writeFiles(t, map[string]string{"exp.hcl": exp, "parts/lab.hcl": labPart})
	_, diags := Load(filepath.Join(dir, "exp.hcl"), LoadOptions{})
	root, part := filepath.Join(dir, "exp.hcl"), filepath.Join(dir, "parts", "lab.hcl")
	for _, c := range []struct {
		summary string
		line    int
		first   string
	}{{"Duplicate variable", 5, part + ":1,"}, {"Duplicate host", 7, part + ":9,"}} {
		found := false
		for _, d := range diags {
			if d.Summary == c.summary && d.Subject.Filename == root && d.Subject.Start.Line == c.line && strings.Contains(d.Detail, c.first) {
				found = true
			}
		}
		if !found {
			t.Errorf("no %s at exp.hcl:%d naming %s:\n%s", c.summary, c.line, c.first, diags.Error())
		}
	}
}

// TestIncludeMissingFile: an include of a file that is not there is an
// error at the include's label, naming the path it tried.
func TestIncludeMissingFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{"exp.hcl": experiment})
	tb, diags := Load(filepath.Join(dir, "exp.hcl"), LoadOptions{})
	if !diagAt(diags, "Cannot read included file", filepath.Join(dir, "exp.hcl"), 3) ||
		!strings.Contains(diags.Error(), filepath.Join(dir, "parts", "lab.hcl")) {
		t.Fatalf("diags:\n%s", diags.Error())
	}
	if tb == nil || tb.Files[filepath.Join(dir, "exp.hcl")] == nil {
		t.Error("the testbed and its readable file are kept for the diagnostics")
	}
}

// TestIncludeCycle: files that include each other are an error naming
// the chain; a file two others include (no cycle) is read once.
func TestIncludeCycle(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"exp.hcl":        experiment,
		"parts/lab.hcl":  "include \"more.hcl\" {}\n" + labPart,
		"parts/more.hcl": "include \"lab.hcl\" {}\n",
	})
	_, diags := Load(filepath.Join(dir, "exp.hcl"), LoadOptions{})
	more := filepath.Join(dir, "parts", "more.hcl")
	if !diagAt(diags, "Include cycle", more, 1) || !strings.Contains(diags.Error(), "lab.hcl includes "+more+" includes ") {
		t.Fatalf("diags:\n%s", diags.Error())
	}

	dir = writeFiles(t, map[string]string{
		"exp.hcl":       strings.Replace(experiment, "include \"parts/lab.hcl\" {}", "include \"parts/a.hcl\" {}\ninclude \"parts/b.hcl\" {}", 1),
		"parts/a.hcl":   "include \"lab.hcl\" {}\n",
		"parts/b.hcl":   "include \"lab.hcl\" {}\n",
		"parts/lab.hcl": labPart,
	})
	tb, diags := Load(filepath.Join(dir, "exp.hcl"), LoadOptions{})
	if diags.HasErrors() || len(tb.Sources) != 4 || len(tb.Hosts) != 1 {
		t.Fatalf("a diamond: sources %q, diags:\n%s", tb.Sources, diags.Error())
	}
}

// TestIncludeBudgets: the testbed's files together stay within one file's
// limits (here: MaxFiles).
func TestIncludeBudgets(t *testing.T) {
	files := map[string]string{"exp.hcl": strings.Replace(experiment, "parts/lab.hcl", "f0.hcl", 1)}
	for i := 0; i < lang.MaxFiles; i++ {
		files[fmt.Sprintf("f%d.hcl", i)] = fmt.Sprintf("include \"f%d.hcl\" {}\n", i+1)
	}
	files[fmt.Sprintf("f%d.hcl", lang.MaxFiles)] = labPart
	dir := writeFiles(t, files)
	_, diags := Load(filepath.Join(dir, "exp.hcl"), LoadOptions{})
	if !strings.Contains(diags.Error(), "Too many files") {
		t.Fatalf("diags:\n%s", diags.Error())
	}
}

// TestOverride: an override block merges into the included block: its
// attributes replace, its nested blocks replace those of their type and
// labels in place; a diagnostic in it names the override's file; an
// override of a block no file has is an error.
func TestOverride(t *testing.T) {
	exp := experiment + `
override {
  host "h1" {
    roles = ["object", "client", "proxy"]
    disks "d" { names = ["d1", "d2", "d3"] }
    disks "e" { names = ["e1"] }
  }
}
`
	part := strings.Replace(labPart, `disks "d" { names = local.disks }`, "disks \"c\" { names = [\"c1\"] }\n  disks \"d\" { names = local.disks }\n  disks \"z\" { names = [\"z1\"] }", 1)
	part += "\nservice \"proxy-server\" {\n  role = \"proxy\"\n}\n"
	dir := writeFiles(t, map[string]string{"exp.hcl": exp, "parts/lab.hcl": part})
	tb, diags := Load(filepath.Join(dir, "exp.hcl"), LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	h := tb.Hosts[0]
	var groups []string
	for _, g := range h.Disks {
		for _, d := range g.Disks {
			groups = append(groups, g.Name+"/"+d.Name)
		}
	}
	if strings.Join(h.Roles, ",") != "object,client,proxy" || strings.Join(groups, " ") != "c/c1 d/d1 d/d2 d/d3 z/z1 e/e1" {
		t.Errorf("roles %v, disks %v", h.Roles, groups)
	}

	bad := experiment + "\noverride {\n  host \"h1\" {\n    roles = \"object\"\n  }\n  host \"h9\" {}\n}\n"
	dir = writeFiles(t, map[string]string{"exp.hcl": bad, "parts/lab.hcl": labPart})
	_, diags = Load(filepath.Join(dir, "exp.hcl"), LoadOptions{})
	root := filepath.Join(dir, "exp.hcl")
	if !hasErrorIn(diags, root, lineIn(bad, `roles = "object"`)) || !diagAt(diags, "Nothing to override", root, lineIn(bad, `host "h9"`)) {
		t.Errorf("diags:\n%s", diags.Error())
	}
}

// TestInlinedLoadsTheSame: the testbed inlined into one text (what a run
// keeps) loads into the same model, and loading is deterministic.
func TestInlinedLoadsTheSame(t *testing.T) {
	for _, f := range []string{"../../testbeds/lab/policies-lab.hcl", "../../testbeds/lab/faults-lab.hcl", "../../testbeds/seed003-containers.hcl"} {
		a, diags := Load(f, LoadOptions{})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		again, _ := Load(f, LoadOptions{})
		if !reflect.DeepEqual(a.Sources, again.Sources) || digest(a) != digest(again) {
			t.Errorf("%s: two loads differ", f)
		}
		text := a.Inlined()
		if strings.Contains(string(text), "include \"") {
			t.Errorf("%s: an include left in\n%s", f, text)
		}
		b, diags := LoadSource(f, text, LoadOptions{})
		if diags.HasErrors() {
			t.Fatalf("%s inlined: %s\n%s", f, diags.Error(), text)
		}
		if digest(a) != digest(b) || len(b.Sources) != 1 {
			t.Errorf("%s: inlined loads another testbed:\n%s\n%s", f, digest(a), digest(b))
		}
	}
}

// digest is what a testbed describes, for comparing two loads.
func digest(tb *plan.Testbed) string {
	var b strings.Builder
	for _, h := range tb.Hosts {
		fmt.Fprintf(&b, "host %s %s %v %d\n", h.Name, h.Address, h.Roles, len(h.Disks))
		for _, g := range h.Disks {
			for _, d := range g.Disks {
				fmt.Fprintf(&b, "  disk %s/%s %s %s %v\n", g.Name, d.Name, d.Device, d.Filesystem, d.Format)
			}
		}
	}
	for _, r := range tb.Rings {
		fmt.Fprintf(&b, "ring %s %d %g %d %d\n", r.Name, r.PartPower, r.Replicas, r.Port, r.PortBase)
	}
	for _, s := range tb.Services {
		fmt.Fprintf(&b, "service %s\n", s.Name)
		for _, sec := range slices.Sorted(maps.Keys(s.Settings)) {
			for _, k := range slices.Sorted(maps.Keys(s.Settings[sec])) {
				fmt.Fprintf(&b, "  [%s] %s = %s\n", sec, k, s.Settings[sec][k].Value)
			}
		}
	}
	for _, v := range tb.Variants {
		fmt.Fprintf(&b, "variant %s %d\n", v.Name, len(v.Faults))
	}
	for _, w := range tb.Workloads {
		fmt.Fprintf(&b, "workload %s %s\n", w.Name, w.ScenarioFile)
	}
	fmt.Fprintf(&b, "policies %d sensitive %d\n", len(tb.Policies), len(tb.Sensitive))
	return b.String()
}
