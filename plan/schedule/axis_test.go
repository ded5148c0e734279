package schedule

import (
	"encoding/json"
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/plan/decode"
	"benchbed/plan/plantest"
)

// TestPrefillStepsNameTheAxis: a prefill block naming a workload with
// for_each prefills every point of its axis.
func TestPrefillStepsNameTheAxis(t *testing.T) {
	text := plantest.Fixture(t, "axis-base.hcl") + `
workload "users" {
  for_each = [2, 4]
  scenario = "put.scenario"` + plantest.Fixture(t, "axis-auth.hcl.part") + `
}
prefill { workloads = ["users"] }`
	tb := plantest.Load(t, text, decode.LoadOptions{}, map[string]string{"put.scenario": plantest.Fixture(t, "put.scenario")})
	steps := prefillSteps(tb)
	if len(steps) != 2 || steps[0].Workload != "users=2" || steps[1].Workload != "users=4" {
		t.Errorf("prefill steps %v", steps)
	}
}

// TestPlanJSONShowsAxis checks that plan --json lists the workloads with
// their axis points and gives every cell its params, beside the contract
// keys.
func TestPlanJSONShowsAxis(t *testing.T) {
	text := plantest.Fixture(t, "axis-base.hcl") + `
workload "containers" {
  for_each     = [1, 8]
  scenario     = "put.scenario"
  scenario_set = { container_count = each.value }` + plantest.Fixture(t, "axis-auth.hcl.part") + `
}`
	tb := plantest.Load(t, text, decode.LoadOptions{}, map[string]string{"put.scenario": plantest.Fixture(t, "put.scenario")})
	b, err := json.Marshal(New(tb).JSON())
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Workloads []struct {
			Name        string            `json:"name"`
			Block       string            `json:"block"`
			Axis        *plan.AxisPoint   `json:"axis"`
			ScenarioSet map[string]string `json:"scenario_set"`
		} `json:"workloads"`
		Cells []map[string]any `json:"cells"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Workloads) != 2 || got.Workloads[1].Name != "containers=8" || got.Workloads[1].Block != "containers" ||
		got.Workloads[1].Axis == nil || got.Workloads[1].Axis.Value != "8" || got.Workloads[1].ScenarioSet["container_count"] != "8" {
		t.Errorf("workloads: %+v", got.Workloads)
	}
	if len(got.Cells) != 12 {
		t.Fatalf("%d cells, want 3 variants x 2 points x 2 repeats", len(got.Cells))
	}
	c := got.Cells[2]
	for _, k := range []string{"id", "variant", "workload", "repeat"} {
		if _, ok := c[k]; !ok {
			t.Errorf("cell lacks contract key %q", k)
		}
	}
	if c["workload"] != "containers=8" || c["params"].(map[string]any)["container_count"] != "8" {
		t.Errorf("cell 3: %v", c)
	}
	var text2 strings.Builder
	if err := New(tb).WriteText(&text2); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text2.String(), "containers=8: scenario put.scenario, 128 users, 15m0s; axis containers[1] = 8; container_count = 8") {
		t.Errorf("plan text lacks the axis point:\n%s", text2.String())
	}
}
