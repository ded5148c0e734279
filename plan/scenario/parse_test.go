package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestShippedScenariosParse(t *testing.T) {
	files, _ := filepath.Glob("../../testbeds/scenarios/*.scenario")
	if len(files) == 0 {
		t.Fatal("no scenario under testbeds/scenarios")
	}
	for _, f := range files {
		if _, err := ParseFile(f, readFile(t, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestScenarioFileErrors(t *testing.T) {
	cases := map[string]string{
		"{\n \"name\": \"x\",\n \"sizes\": [],\n}": "x.scenario:4,1",
		`{"name": "x", "bogus": 1}`:                `unknown field "bogus"`,
		`{"name": "x", "sizes": [{"name": "a", "size_min": 1, "size_max": 1}], "initial_files": {"a": 0}, "crud_profile": [0,1,0,0], "run_seconds": 1}`: "initial_files has no object",
		`{"name": "x", "sizes": [{"name": "a", "size_min": 1, "size_max": 1}], "initial_files": {"a": 1}, "crud_profile": [0,1,0], "run_seconds": 1}`:   "crud_profile must have 4 weights",
		"{\n\"name\": 5}": "x.scenario:2,",
	}
	dir := t.TempDir()
	for in, want := range cases {
		p := filepath.Join(dir, "x.scenario")
		if err := os.WriteFile(p, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ParseFile(p, readFile(t, p))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "x.scenario") {
			t.Errorf("%q: err %v, want it to name the file and say %q", in, err, want)
		}
	}
}

func TestContainerPutHeadersAccepted(t *testing.T) {
	s, err := Parse([]byte(`{"name": "x", "sizes": [{"name": "a", "size_min": 1, "size_max": 1}],
	  "initial_files": {"a": 1}, "crud_profile": [1,0,0,0], "operation_count": 3,
	  "container_put_headers": {"X-Container-Meta-A": "b"}, "delete_after": 10, "policy": "p", "block_size": 4096}`))
	if err != nil || s.ContainerPutHeaders["X-Container-Meta-A"] != "b" || s.ContainerName(3) != "ssbench_000003_p" {
		t.Fatalf("%+v %v", s, err)
	}
}

// TestScenarioRefusalsAtTheirLine: every value ssbench refuses (or crashes
// on) is refused, each at its own line of the file, all of them at once.
func TestScenarioRefusalsAtTheirLine(t *testing.T) {
	in := `{
  "name": "Small test scenario",
  "sizes": [
    {"name": "tiny", "size_min": 4096, "size_max": 65536},
    {"name": "small", "size_min": 200000, "size_max": 100000},
    {"name": "huge", "size_max": 1}
  ],
  "initial_files": {"tiny": 100, "small": 10, "medium": 3},
  "operation_count": 500,
  "crud_profile": [3, 4, 2, 2],
  "container_count": 0,
  "container_concurrency": -1,
  "delete_after": -5,
  "container_base": "a/b",
  "user_count": 0
}`
	p := filepath.Join(t.TempDir(), "x.scenario")
	if err := os.WriteFile(p, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ParseFile(p, readFile(t, p))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{
		p + ":15,3: scenario: user_count must be >= 1, got 0",
		p + `:14,3: scenario: container_base "a/b": a container's name cannot hold '/'`,
		p + ":11,3: scenario: container_count must be >= 1, got 0",
		p + ":12,3: scenario: container_concurrency must be >= 1, got -1",
		p + ":13,3: scenario: delete_after must be >= 0, got -5",
		p + `:5,43: scenario: sizes[1] "small": need 0 <= size_min <= size_max, got 200000 and 100000`,
		p + ":6,5: scenario: sizes[2]: size_min is missing",
		p + `:8,47: scenario: initial_files names size "medium", which sizes does not declare`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("lacks %q in:\n%v", want, err)
		}
	}
}

// TestUserCountLeftOutDefaultsToOne: ssbench takes a missing user_count
// from its -u; benchbed from --users or the workload, else 1. A user_count
// written as 0 is another matter: refused above.
func TestUserCountLeftOutDefaultsToOne(t *testing.T) {
	s, err := Parse([]byte(`{"name": "x", "sizes": [{"name": "a", "size_min": 1, "size_max": 1}],
	  "initial_files": {"a": 1}, "crud_profile": [0, 1, 0, 0], "operation_count": 3}`))
	if err != nil || s.UserCount != 1 || s.ContainerCount != 100 || s.ContainerConcurrency != 10 {
		t.Fatalf("%+v %v", s, err)
	}
}

// readFile is the contents of the test's file p.
func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
