package main

import (
	"benchbed/plan"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/results"
)

// readmeScenario is ssbench's README "Small test scenario", as published.
const readmeScenario = `{"name": "Small test scenario", "sizes": [{"name": "tiny", "size_min": 4096, "size_max": 65536},
 {"name": "small", "size_min": 100000, "size_max": 200000}], "initial_files": {"tiny": 100, "small": 10},
 "operation_count": 500, "crud_profile": [3, 4, 2, 2], "user_count": 7}`

func writeFile(t *testing.T, name, text string) string {
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func loadJSON(t *testing.T, m *memSwift, file string, extra ...string) (results.Cell, string, error) {
	t.Helper()
	args := append([]string{"load", "--scenario", file, "--auth-url", m.URL + "/auth/v1.0", "--user", "test:tester",
		"--key", "testing", "--json"}, extra...)
	out, errOut, err := runCmd(t, "", args...)
	var c results.Cell
	if jerr := json.Unmarshal([]byte(out), &c); jerr != nil && err == nil {
		t.Fatalf("not a cell: %v\n%s\n%s", jerr, out, errOut)
	}
	return c, errOut, err
}

// TestLoadRunsTheReadmeScenarioAsSsbench: the initial files are put first,
// 500 measured operations all succeed, afterwards the account holds the
// 110 initial files and nothing the run created, and a second run puts no
// initial file again.
func TestLoadRunsTheReadmeScenarioAsSsbench(t *testing.T) {
	m := newMemSwift(t)
	file := writeFile(t, "small.scenario", readmeScenario)
	var initial []string
	for run := 1; run <= 2; run++ {
		c, errOut, err := loadJSON(t, m, file)
		if err != nil || c.Status != "ok" || c.Total.Count != 500 || c.Total.Errors != 0 {
			t.Fatalf("run %d: %v, status %s, %d ok, %d failed\n%s", run, err, c.Status, c.Total.Count, c.Total.Errors, errOut)
		}
		wantLine := map[int]string{1: "initial files: 110 put, 0 already in place", 2: "initial files: 0 put, 110 already in place"}[run]
		if !strings.Contains(errOut, wantLine) {
			t.Fatalf("run %d: stderr lacks %q:\n%s", run, wantLine, errOut)
		}
		after := m.all()
		if run == 1 {
			initial = after
		}
		if len(after) != 110 || strings.Join(after, " ") != strings.Join(initial, " ") {
			t.Fatalf("run %d: %d objects afterwards, want the 110 initial files", run, len(after))
		}
		for _, o := range after {
			if i := strings.LastIndexByte(o, '_'); o[i+1:] > "000100" {
				t.Fatalf("run %d left %s behind", run, o)
			}
		}
	}
}

// TestLoadGateFailsTheRun: GETs of the objects whose name ends in 7 answer
// 503, even when retried (about 3 % of the operations): that fails the run
// at the default 1 %: exit 1, status failed with the cause, the table's
// req/s marked failed. At --max-error-rate 10% it passes.
func TestLoadGateFailsTheRun(t *testing.T) {
	m := newMemSwift(t)
	m.failGet = "7"
	file := writeFile(t, "small.scenario", readmeScenario)
	c, _, err := loadJSON(t, m, file)
	if err == nil || c.Status != "failed" || !strings.Contains(c.Error, "above max_error_rate 1%; top causes: http_503=") {
		t.Fatalf("err %v, status %s, error %q", err, c.Status, c.Error)
	}
	out, _, err := runCmd(t, "", "load", "--scenario", file, "--auth-url", m.URL+"/auth/v1.0", "--user", "test:tester", "--key", "testing")
	var ec *exitError
	if err == nil || !errors.As(err, &ec) || ec.code != exitNo || !strings.Contains(err.Error(), "max_error_rate") ||
		!strings.Contains(out, "| failed: ") || !strings.Contains(out, "count only the operations that succeeded") {
		t.Fatalf("err %v, table:\n%s", err, out)
	}
	if c, _, err := loadJSON(t, m, file, "--max-error-rate", "10%"); err != nil || c.Status != "ok" || c.Total.Errors == 0 {
		t.Fatalf("at 10%%: err %v, status %s, %d errors", err, c.Status, c.Total.Errors)
	}
}

// TestLoadInitialCheckRefusesBeforeMeasuring: with --initial check and the
// initial files absent, nothing is measured and nothing is put; the error
// names the scenario, the containers and the counts.
func TestLoadInitialCheckRefusesBeforeMeasuring(t *testing.T) {
	m := newMemSwift(t)
	file := writeFile(t, "small.scenario", readmeScenario)
	_, errOut, err := loadJSON(t, m, file, "--initial", "check")
	if err == nil || !strings.Contains(err.Error(), "Small test scenario: 110 of its 110 initial objects are missing (ssbench_000000_default_policy holds 0 of 2") {
		t.Fatalf("err %v\n%s", err, errOut)
	}
	if m.puts != 0 || len(m.conts) != 0 {
		t.Fatalf("the check changed the account: %d PUTs, %d containers", m.puts, len(m.conts))
	}
}

func TestRateFlag(t *testing.T) {
	for in, want := range map[string]float64{"1%": 0.01, "0.05": 0.05, "0": 0, "100%": 1} {
		if got, err := plan.ParseRate(in); err != nil || got != want {
			t.Errorf("%s: %v %v", in, got, err)
		}
	}
	for _, bad := range []string{"5", "-1%", "x", "101%"} {
		if _, err := plan.ParseRate(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
