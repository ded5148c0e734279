package sweep

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/results/rundir"
	"benchbed/templates/secrets"
)

// TestSavedTestbedIsMasked: the testbed file kept in the run has its
// sensitive values (here a variable's default) masked.
func TestSavedTestbedIsMasked(t *testing.T) {
	s := bareSweeper(t)
	s.tb.File = filepath.Join(t.TempDir(), "tb.hcl")
	src := "variable \"auth_key\" {\n  default   = \"s3cret-key\"\n  sensitive = true\n}\n"
	if err := os.WriteFile(s.tb.File, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.saveTestbed(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(s.run.Dir, rundir.TestbedFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "s3cret") || !strings.Contains(string(b), `default   = "`+secrets.Masked+`"`) {
		t.Fatalf("testbed.hcl in the run:\n%s", b)
	}
}
