package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// writeTestbed writes text as a testbed file in a temporary directory.
func writeTestbed(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tb.hcl")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDiagnosticsText: the greppable first line, then the source line
// with a caret line under the range and the detail, all indented; a
// secret on the line is starred out; no colour off a terminal.
func TestDiagnosticsText(t *testing.T) {
	p := writeTestbed(t, "testbed \"t\" {}\nworkload \"w\" {\n  auth {\n    url  = \"http://127.0.0.1:8080/auth/v1.0\"\n"+
		"    user = \"a:b\"\n    key  = \"TopSecret123\" }\n}\n")
	code, _, errOut := captureRun(t, "validate", p)
	want := p + ":6,27: Missing newline after argument\n" +
		"    on " + p + " line 6, in workload \"w\":\n" +
		"       6:     key  = \"************\" }\n" +
		"                                    ^\n" +
		"    An argument definition must end with a newline.\n"
	if code != exitNo || errOut != want {
		t.Fatalf("exit %d, stderr:\n%s\nwant:\n%s", code, errOut, want)
	}
}

// TestDiagnosticsColour: colour only where asked, the first line's text
// unchanged.
func TestDiagnosticsColour(t *testing.T) {
	d := &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "s", Subject: &hcl.Range{Filename: "f", Start: hcl.Pos{Line: 2, Column: 3}}}
	if got := (&diagWriter{}).header(d); got != "f:2,3: warning: s" {
		t.Errorf("plain header %q", got)
	}
	if got := (&diagWriter{color: true}).header(d); got != "f:2,3: \x1b[1;33mwarning: s\x1b[0m" {
		t.Errorf("colour header %q", got)
	}
	t.Setenv("NO_COLOR", "1")
	if useColor(os.Stderr) {
		t.Error("NO_COLOR set, colour used")
	}
}

// TestValidateJSON: Terraform's validate -json shape, the snippet's
// highlight on the range; the address's one mistake is one error.
func TestValidateJSON(t *testing.T) {
	p := writeTestbed(t, "testbed \"t\" {}\nhost \"h\" {\n  address = [1]\n  roles = [\"object\"]\n}\n")
	code, out, errOut := captureRun(t, "validate", "--json", p)
	var v validateJSON
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != exitNo || errOut != "" {
		t.Fatalf("exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
	if v.FormatVersion != "1.0" || v.Valid || v.ErrorCount != len(v.Diagnostics) || v.ErrorCount == 0 {
		t.Fatalf("%+v", v)
	}
	d := v.Diagnostics[len(v.Diagnostics)-1] // after line 2's role served by no service
	s := d.Snippet
	if d.Summary != "Invalid value for address" || d.Severity != "error" || d.Range == nil || d.Range.Start.Line != 3 || s == nil || s.Context == nil ||
		*s.Context != `host "h"` || s.Code[s.HighlightStartOffset:s.HighlightEndOffset] != "[1]" || s.Values == nil {
		t.Fatalf("%s", out)
	}
	if !strings.Contains(out, `"values": []`) {
		t.Errorf("values not an empty list:\n%s", out)
	}
	code, out, _ = captureRun(t, "validate", "--json", seedFile)
	if code != exitOK || !strings.Contains(out, `"valid": true`) {
		t.Errorf("seed: exit %d\n%s", code, out)
	}
}

// TestQuotedSectionMessage: a quoted section written as an attribute
// says where it goes.
func TestQuotedSectionMessage(t *testing.T) {
	p := writeTestbed(t, "testbed \"t\" {}\nservice \"object-server\" {\n  role = \"object\"\n  \"app:object-server\" = { workers = 2 }\n}\n")
	_, _, errOut := captureRun(t, "validate", p)
	if !strings.Contains(errOut, p+":4,3: Quoted section outside settings") ||
		!strings.Contains(errOut, `settings = { "app:object-server" = { key = value } }`) {
		t.Fatalf("%s", errOut)
	}
}

// TestStarSecrets: a changed line keeps its length, starred where it
// differs; a change of line count is refused.
func TestStarSecrets(t *testing.T) {
	got, ok := starSecrets([]byte("a\nkey = \"pw\" # x\n"), []byte("a\nkey = \"(sensitive)\" # x\n"))
	if !ok || string(got) != "a\nkey = \"**\" # x\n" {
		t.Errorf("%q %v", got, ok)
	}
	if _, ok := starSecrets([]byte("a\nb"), []byte("a")); ok {
		t.Error("line counts differ: accepted")
	}
}

// TestOneErrorPerMistake: a string where a list of roles is expected is
// one error saying how to write it, not the errors of a host without
// roles that followed it.
func TestOneErrorPerMistake(t *testing.T) {
	dir := t.TempDir()
	scen, err := os.ReadFile("../../testbeds/lab/64K_get_lab.scenario")
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(dir, "64K_get_lab.scenario"), scen)
	p := filepath.Join(dir, "lab.hcl")
	writeTestFile(t, p, []byte(strings.Replace(string(labInlined(t)), `roles   = ["proxy"]`, `roles   = "proxy"`, 1)))
	code, _, errOut := captureRun(t, "validate", p)
	// lab.hcl's threads_per_disk variant also gives its retired-option warning
	n := strings.Count(errOut, p+":") - strings.Count(errOut, ": warning: Retired Swift option")
	if code != exitNo || n != 1 || !strings.Contains(errOut, `write ["proxy"]`) {
		t.Fatalf("exit %d, %d diagnostics:\n%s", code, n, errOut)
	}
}

// TestForEachAndSetMistakes: a mistake in a for_each block is said once,
// naming its elements; a set of an unknown service is refused at its
// label with the nearest name and the services.
func TestForEachAndSetMistakes(t *testing.T) {
	skel, err := os.ReadFile("testdata/docs/skeleton.hcl")
	if err != nil {
		t.Fatal(err)
	}
	text := string(skel) + "variant \"spp\" {\n  for_each = [1, 2]\n  set \"objectserver\" { DEFAULT = { workers = each.value } }\n}\n" +
		"workload \"many\" {\n  for_each = [1, 2, 3]\n  scenario = \"64K_get_lab.scenario\"\n  users = \"lots\"\n" +
		"  storage_url = \"http://10.0.0.1:8080/v1/AUTH_bench\"\n  token = var.token\n}\n"
	p := writeTestbed(t, text)
	if err := os.WriteFile(filepath.Join(filepath.Dir(p), "64K_get_lab.scenario"), scenarioFor(t, "64K_get_lab.scenario"), 0o644); err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(string(skel), "\n")
	code, _, errOut := captureRun(t, "validate", p)
	for _, want := range []string{
		fmt.Sprintf("%s:%d,7: Variant sets an unknown service", p, lines+3),
		`did you mean "object-server"? The services: "proxy-server", "object-server"`,
		"(in each of the for_each's 2 elements: spp=1, spp=2)",
		fmt.Sprintf("%s:%d,11: Invalid value for users", p, lines+8),
		"(in each of the for_each's 3 elements: many=1, many=2, many=3)",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q", want)
		}
	}
	if n := strings.Count(errOut, p+":"); code != exitNo || n != 2 {
		t.Errorf("exit %d, %d diagnostics:\n%s", code, n, errOut)
	}
}
