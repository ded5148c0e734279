package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestShippedScenariosParse(t *testing.T) {
	files, _ := filepath.Glob("../testbeds/scenarios/*.scenario")
	if len(files) == 0 {
		t.Fatal("no scenario under testbeds/scenarios")
	}
	for _, f := range files {
		if _, err := ParseScenarioFile(f); err != nil {
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
		_, err := ParseScenarioFile(p)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "x.scenario") {
			t.Errorf("%q: err %v, want it to name the file and say %q", in, err, want)
		}
	}
}

func TestContainerPutHeadersAccepted(t *testing.T) {
	s, err := ParseScenario([]byte(`{"name": "x", "sizes": [{"name": "a", "size_min": 1, "size_max": 1}],
	  "initial_files": {"a": 1}, "crud_profile": [1,0,0,0], "operation_count": 3,
	  "container_put_headers": {"X-Container-Meta-A": "b"}, "delete_after": 10, "policy": "p", "block_size": 4096}`))
	if err != nil || s.ContainerPutHeaders["X-Container-Meta-A"] != "b" || s.ContainerName(3) != "ssbench_000003_p" {
		t.Fatalf("%+v %v", s, err)
	}
}
