package decode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan/lang"
)

// TestScenarioFileRefusedAtItsLine: a scenario file with "user_count": 0
// (ssbench refuses it) makes the testbed invalid, with the diagnostic at
// that line of the scenario file and the workload named.
func TestScenarioFileRefusedAtItsLine(t *testing.T) {
	dir := t.TempDir()
	tb, err := os.ReadFile(filepath.Join("testdata", "broken", "scenario_invalid.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	scenario := `{
  "name": "zero users",
  "sizes": [{"name": "4KiB", "size_min": 4096, "size_max": 4096}],
  "initial_files": {"4KiB": 300},
  "operation_count": 100,
  "crud_profile": [0, 1, 0, 0],
  "user_count": 0
}`
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "bad.scenario"), []byte(scenario), 0o644))
	path := filepath.Join(dir, "tb.hcl")
	must(os.WriteFile(path, tb, 0o644))
	_, diags := Load(path, LoadOptions{})
	var b strings.Builder
	must(lang.WriteDiagnostics(&b, nil, diags))
	want := filepath.Join(dir, "bad.scenario") + `:7,3: Invalid scenario
    workload "w": scenario: user_count must be >= 1, got 0`
	if !diags.HasErrors() || strings.TrimSpace(b.String()) != want {
		t.Fatalf("diagnostics:\n%s\nwant:\n%s", b.String(), want)
	}
}
