package schedule

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan/decode"
	"benchbed/plan/plantest"
)

// TestPlanChecksInitialObjectsWithoutPrefill: a workload that reads its
// initial objects and that no prefill block creates gets a check before
// any lock or change; a create-only one, or a prefilled one, none.
func TestPlanChecksInitialObjectsWithoutPrefill(t *testing.T) {
	dir := t.TempDir()
	get := `{"name": "g", "sizes": [{"name": "4KiB", "size_min": 4096, "size_max": 4096}], "initial_files": {"4KiB": 300},
	  "operation_count": 10, "crud_profile": [1, 3, 0, 0], "container_base": "g"}`
	if err := os.WriteFile(filepath.Join(dir, "get.scenario"), []byte(get), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join("..", "decode", "testdata", "broken", "put1.scenario"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "put1.scenario"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	tbSrc := strings.Replace(strings.Replace(plantest.Fixture(t, "rate.hcl.tmpl"), "%s", "0.01", 2), `workload "a" {
  scenario       = "put1.scenario"`, `workload "a" {
  scenario       = "get.scenario"`, 1)
	for _, tc := range []struct {
		extra string
		want  []string
	}{{"", []string{"a"}}, {"prefill { workloads = [\"a\"] }\n", nil}, {"prefill { workloads = [\"b\"] }\n", []string{"a"}}} {
		tb, diags := decode.LoadSource(filepath.Join(dir, "tb.hcl"), []byte(tbSrc+tc.extra), decode.LoadOptions{})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		p := New(tb)
		var got []string
		for _, s := range p.Before {
			if s.Kind == StepPreconditions && !s.Unchanged {
				got = append(got, s.Workload)
			}
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%q: checks %v, want %v", tc.extra, got, tc.want)
		}
		var b strings.Builder
		if err := p.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		line := "preconditions   a: its 300 initial objects listed from h1, no PUT"
		if strings.Contains(b.String(), line) != (tc.want != nil) {
			t.Errorf("%q: text:\n%s", tc.extra, b.String())
		}
	}
}
