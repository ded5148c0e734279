package sweep

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan/decode"
	"benchbed/results/rundir"
	"benchbed/templates/secrets"
)

// TestSavedTestbedIsMasked: the testbed kept in the run holds every file
// of the testbed (the experiment and the lab part it includes, inlined)
// with the sensitive values of each masked: a variable's default in the
// part, a tempauth key written in clear in the experiment; sweep.json
// names the files read.
func TestSavedTestbedIsMasked(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"parts/lab.hcl": "# the lab's part\nvariable \"auth_key\" {\n  default   = \"s3cret-key\"\n  sensitive = true\n}\n\n" +
			"host \"aio\" {\n  address = \"127.0.0.1\"\n  roles   = [\"proxy\", \"client\"]\n}\n\n" +
			"service \"proxy-server\" {\n  role = \"proxy\"\n  settings = { \"filter:tempauth\" = { user_bench_bench = \"${var.auth_key} .admin\" } }\n}\n",
		"tb.hcl": "testbed \"tb\" {}\n\ninclude \"parts/lab.hcl\" {}\n\nvariant \"normal\" {}\n\n" +
			"workload \"w\" {\n  scenario = { sizes = [{ name = \"s\", size_min = 1, size_max = 1 }], initial_files = { s = 1 }, crud_profile = [1, 0, 0, 0], user_count = 1, run_seconds = 1 }\n" +
			"  clients = [\"aio\"]\n  auth {\n    url  = \"http://127.0.0.1:8080/auth/v1.0\"\n    user = \"bench:bench\"\n    key  = \"s3cret-key\"\n  }\n}\n",
	}
	for name, text := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tb, diags := decode.Load(filepath.Join(dir, "tb.hcl"), decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	s := bareSweeper(t)
	s.tb = tb
	if err := s.saveTestbed(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(s.run.Dir, rundir.TestbedFile))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, want := range []string{`default   = "` + secrets.Masked + `"`, `key  = "` + secrets.Masked + `"`,
		"# the lab's part", `host "aio"`, `variant "normal"`, "# ---- " + filepath.Join(dir, "parts", "lab.hcl")} {
		if !strings.Contains(text, want) {
			t.Errorf("testbed.hcl in the run lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "s3cret") || strings.Contains(text, "include \"") {
		t.Errorf("testbed.hcl in the run holds a secret or an include:\n%s", text)
	}
	si, err := rundir.ReadSweepInfo(s.run.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, "tb.hcl"), filepath.Join(dir, "parts", "lab.hcl")}; strings.Join(si.Files, "|") != strings.Join(want, "|") {
		t.Errorf("sweep.json files %q, want %q", si.Files, want)
	}
}
