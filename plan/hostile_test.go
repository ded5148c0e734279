package plan

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// hostileCases pins every testbed under testdata/hostile, careless or
// hostile input that must be refused where it is written: its summary and
// line, as brokenCases does.
var hostileCases = []struct {
	file    string
	line    int
	summary string
	warning bool
}{
	{"setting_key_newline", 14, "Invalid setting name", false},
	{"setting_section_bracket", 14, "Invalid section name", false},
	{"setting_key_empty", 14, "Invalid setting name", false},
	{"setting_key_bidi", 14, "Invalid setting name", false},
	{"setting_key_space", 14, "Invalid setting name", false},
	{"service_path_root", 13, "Invalid path", false},
	{"service_path_newline", 13, "Invalid path", false},
	{"service_path_unclean", 13, "Invalid path", false},
	{"two_services_one_path", 16, "Two services write one conf", false},
}

func TestHostileTestbeds(t *testing.T) {
	files, err := filepath.Glob("testdata/hostile/*.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(hostileCases) {
		t.Errorf("%d files under testdata/hostile, %d cases: pin every file", len(files), len(hostileCases))
	}
	for _, c := range hostileCases {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join("testdata", "hostile", c.file+".hcl")
			_, diags := Load(path, LoadOptions{})
			checkOneDiagnostic(t, path, diags, c.line, c.summary, c.warning)
		})
	}
}

// checkOneDiagnostic requires diags to be exactly one diagnostic, summary
// at line of path (a warning when warning).
func checkOneDiagnostic(t *testing.T, path string, diags hcl.Diagnostics, line int, summary string, warning bool) {
	t.Helper()
	if diags.HasErrors() == warning {
		t.Errorf("HasErrors = %v, want %v", diags.HasErrors(), !warning)
	}
	if len(diags) != 1 {
		t.Errorf("%d diagnostics, want exactly 1:\n%s", len(diags), diags.Error())
	}
	want := hcl.DiagError
	if warning {
		want = hcl.DiagWarning
	}
	for _, d := range diags {
		if d.Summary == summary && d.Severity == want && d.Subject != nil &&
			d.Subject.Start.Line == line && d.Subject.Filename == path {
			return
		}
	}
	t.Errorf("no %q at line %d; got:\n%s", summary, line, diags.Error())
}

func TestNameProblem(t *testing.T) {
	for _, c := range []struct {
		name    string
		section bool
		bad     bool
	}{
		{"workers", false, false}, {"filter:tempauth", true, false}, {"app:object-server", true, false},
		{"a\x00b", false, true}, {"a\x00b", true, true}, {"a\tb", false, true}, {"a=b", false, true},
		{"a:b", false, true}, {"#x", false, true}, {";x", false, true}, {"[x", false, true}, {"x]", true, true},
		{"", true, true}, {"x ", true, true}, {"a\u2066b", true, true}, {"a=b", true, false},
	} {
		if got := nameProblem(c.name, c.section) != ""; got != c.bad {
			t.Errorf("nameProblem(%q, section %v) = %q, want bad %v", c.name, c.section, nameProblem(c.name, c.section), c.bad)
		}
	}
	if !strings.Contains(nameProblem("a\x00", false), "NUL") {
		t.Error("NUL not named")
	}
}
