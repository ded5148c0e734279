package decode

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan/lang"
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
	{"template_dev_zero", 13, "Cannot read template", false},
	{"locals_string_doubling", 20, "Value too large", false},
	{"format_width", 2, "Error in function call", false},
	{"setproduct_huge", 2, "Invalid function argument", false},
	{"for_nested", 2, "For expressions nested too deep", false},
	{"nesting_deep", 2, "Nesting too deep", false},
	{"variants_too_many", 17, "Too many variants", false},
	{"cells_too_many", 19, "Too many cells", false},
	{"ring_disks_empty", 9, "Invalid value for disks", false},
	{"ring_no_devices", 5, "Empty disk group", false},
	{"ring_weight_negative", 7, "Invalid value for weight", false},
	{"ring_weight_infinite", 7, "Invalid value for weight", false},
	{"ring_replicas_infinite", 10, "Invalid value for replicas", false},
	{"ring_replicas_huge", 10, "Invalid value for replicas", false},
	{"warning_replicas_above_devices", 10, "Fewer devices than replicas", true},
	{"ring_port_base_past_65535", 7, "Ring port out of range", false},
	{"health_port_range", 20, "Invalid health check", false},
	{"auth_url_file", 20, "Invalid auth URL", false},
	{"auth_url_not_url", 20, "Invalid auth URL", false},
}

// hostileFirst are the testbeds under testdata/hostile whose first
// diagnostic is pinned; more may follow.
var hostileFirst = []struct {
	file    string
	line    int
	summary string
}{
	{"locals_exponential", 18, "Value too large"},
}

func TestHostileTestbeds(t *testing.T) {
	files, err := filepath.Glob("testdata/hostile/*.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(hostileCases)+len(hostileFirst) {
		t.Errorf("%d files under testdata/hostile, %d cases: pin every file", len(files), len(hostileCases)+len(hostileFirst))
	}
	for _, c := range hostileFirst {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join("testdata", "hostile", c.file+".hcl")
			_, diags := Load(path, LoadOptions{})
			if len(diags) == 0 || diags[0].Summary != c.summary || diags[0].Subject == nil || diags[0].Subject.Start.Line != c.line {
				t.Errorf("first diagnostic is not %q at line %d:\n%s", c.summary, c.line, diags.Error())
			}
		})
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

// TestInputFilesBounded checks that a var file or file() naming a device
// is a clear error, not a read that never ends.
func TestInputFilesBounded(t *testing.T) {
	base := filepath.Join("testdata", "broken", "relative_service_path.hcl")
	_, diags := Load(base, LoadOptions{VarFiles: []string{"/dev/zero"}})
	if !strings.Contains(diags.Error(), "/dev/zero: not a regular file of at most 16 MiB") {
		t.Errorf("--var-file /dev/zero: %s", diags.Error())
	}
	src := "locals {\n  z = file(\"/dev/zero\")\n}\n"
	_, diags = LoadSource(filepath.Join(t.TempDir(), "t.hcl"), []byte(src), LoadOptions{})
	if !strings.Contains(diags.Error(), "/dev/zero is not a regular file") {
		t.Errorf("file(\"/dev/zero\"): %s", diags.Error())
	}
}

// TestSourceLimits checks the limits on a testbed's text, on generated
// files (too big to keep in testdata): each is refused with its summary.
func TestSourceLimits(t *testing.T) {
	line := func(n int, s string) string { return strings.Repeat(s, n) }
	for _, c := range []struct {
		name, src, summary string
	}{
		{"bytes", line(lang.MaxSourceSize/8+1, "# bytes\n"), "File too large"},
		{"tokens", "locals {\n" + line(lang.MaxTokens/4+1, "  a = 1\n") + "}\n", "File too large"},
		{"blocks", line(lang.MaxBlocks+1, "ssh {}\n"), "Too many blocks"},
		{"heredoc", "locals {\n  x = <<EOT\n" + line(3000, strings.Repeat("y", 100)+"\n") + "EOT\n}\n", "String too large"},
		{"locals", "locals {\n" + func() string {
			var b strings.Builder
			for i := 0; i <= lang.MaxLocals; i++ {
				fmt.Fprintf(&b, "  l%d = %d\n", i, i)
			}
			return b.String()
		}() + "}\n", "Too many locals"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, diags := LoadSource(filepath.Join(t.TempDir(), c.name+".hcl"), []byte(c.src), LoadOptions{})
			for _, d := range diags {
				if d.Summary == c.summary && d.Subject != nil {
					return
				}
			}
			t.Errorf("no %q; got:\n%s", c.summary, diags.Error())
		})
	}
}
