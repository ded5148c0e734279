package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"benchbed/plan/decode"
)

const (
	plantedFile       = "testdata/secrets/leak.hcl"
	plantedBrokenFile = "testdata/secrets/leak_broken.hcl"
)

// planted matches every secret of testdata/secrets/leak*.hcl and what
// is derived from them: each holds "planted" in some case, but for
// substr's pieces ("Hunter2P", "nter2Plan") and the short forms.
var planted = regexp.MustCompile(`(?i)planted|Hunter2P|nter2Pla|unter2`)

// TestSecretsNeverPrinted plants secrets of every form in a testbed
// (sensitive variables of every shape, values derived from them,
// secret-named keys in Swift and generic INI confs, elements of a
// sensitive map and list) and greps for them every output of validate,
// plan, plan --json, render (its stdout and stderr: the files it writes
// are the real confs), diff, diff --unified and the run directory's copy
// of the testbed (plan.Testbed.MaskedSource).
func TestSecretsNeverPrinted(t *testing.T) {
	out := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"validate", plantedFile}, 0},
		{[]string{"validate", plantedBrokenFile}, 1},
		{[]string{"plan", plantedFile}, 0},
		{[]string{"plan", "--json", plantedFile}, 0},
		{[]string{"diff", plantedFile, "normal", "other"}, 1},
		{[]string{"diff", "--unified", plantedFile, "normal", "other"}, 1},
		{[]string{"render", plantedFile, "--variant", "other", "--out", out}, 0},
	} {
		code, stdout, stderr := captureRun(t, c.args...)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d\n%s\n%s", c.args, code, c.code, stdout, stderr)
		}
		for name, text := range map[string]string{"stdout": stdout, "stderr": stderr} {
			if m := planted.FindAllString(text, -1); m != nil {
				t.Errorf("%s: %s holds secrets %q:\n%s", c.args, name, m, text)
			}
		}
	}
	// What render wrote is the real conf: the secrets are there.
	b, err := os.ReadFile(filepath.Join(out, "h1", "etc", "swift", "object-server.conf"))
	if err != nil || !strings.Contains(string(b), "db_password = OtherDbPlanted") {
		t.Errorf("render's object-server.conf lacks its secret (%v):\n%s", err, b)
	}
}

// TestSecretsMaskedSource checks the masked copy of the testbed a
// run keeps: no secret in any form, the references and the rest kept,
// and the copy still a testbed that parses.
func TestSecretsMaskedSource(t *testing.T) {
	src, err := os.ReadFile(plantedFile)
	if err != nil {
		t.Fatal(err)
	}
	tb, diags := decode.Load(plantedFile, decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	masked := string(tb.MaskedSource(src))
	if m := planted.FindAllString(masked, -1); m != nil {
		t.Errorf("masked copy holds secrets %q:\n%s", m, masked)
	}
	for _, kept := range []string{`e           = var.creds.key`, `user = "admin:admin"`, `shout = upper(var.pw)`,
		`default   = "(sensitive)"`, `user_bench_bench = "${var.pw} .admin"`, `health   = "tcp://:8081"`} {
		if !strings.Contains(masked, kept) {
			t.Errorf("masked copy lost %q:\n%s", kept, masked)
		}
	}
	if _, diags := decode.LoadSource(plantedFile, []byte(masked), decode.LoadOptions{}); diags.HasErrors() {
		t.Errorf("masked copy does not load: %s", diags.Error())
	}
}
