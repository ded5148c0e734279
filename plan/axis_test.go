package plan

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"benchbed/load"

	"github.com/google/go-cmp/cmp"
)

// axisBase is a valid testbed without workloads; tests append them.
const axisBase = `
testbed "t" {}
host "h1" {
  address = "127.0.0.1"
  roles   = ["object", "client"]
  disks "d" { names = ["d1", "d2"] }
}
ring "object" {
  part_power = 8
  disks      = "d"
}
service "object-server" {
  role     = "object"
  settings = { DEFAULT = { workers = 2, servers_per_port = 0 } }
}
variant "normal" {}
variant "spp" {
  for_each = [1, 2]
  set "object-server" { DEFAULT = { servers_per_port = each.value } }
  ring "object" { port_per_disk = true }
}
sweep { repeat = 2 }
`

// putScenario writes 1-byte objects; container_count is overridden.
const putScenario = `{"name": "put1", "sizes": [{"name": "1B", "size_min": 1, "size_max": 1}],
 "initial_files": {"1B": 1}, "run_seconds": 900, "container_count": 100,
 "crud_profile": [1, 0, 0, 0], "user_count": 128}`

const axisAuth = `
  auth {
    url  = "http://127.0.0.1:8080/auth/v1.0"
    user = "a:b"
    key  = "k"
  }`

func scenarioOfT(t *testing.T, w *Workload) *load.Scenario {
	t.Helper()
	sc, err := load.ParseScenario(w.ScenarioJSON)
	if err != nil {
		t.Fatalf("workload %s: %v", w.Name, err)
	}
	return sc
}

// TestWorkloadForEachFile expands a scenario file over container counts
// with scenario_set: one workload per axis point, named label=value, each
// with its own container_count and the file's other fields untouched.
func TestWorkloadForEachFile(t *testing.T) {
	text := axisBase + `
workload "containers" {
  for_each     = [1, 32, 512]
  scenario     = "put.scenario"
  scenario_set = { container_count = each.value, container_base = "c${each.value}" }
  users        = 128
  duration     = "15m"` + axisAuth + `
}`
	tb := mustLoad(t, text, LoadOptions{}, map[string]string{"put.scenario": putScenario})
	var names []string
	for i, w := range tb.Workloads {
		names = append(names, w.Name)
		sc := scenarioOfT(t, w)
		want := []int{1, 32, 512}[i]
		if sc.ContainerCount != want || sc.ContainerBase != "c"+strconv.Itoa(want) || sc.UserCount != 128 || sc.CrudProfile[0] != 1 {
			t.Errorf("%s: scenario %+v", w.Name, sc)
		}
		if w.Block != "containers" || w.Axis == nil || w.Axis.Index != i || w.Axis.Key != strconv.Itoa(i) || w.Axis.Value != strconv.Itoa(want) {
			t.Errorf("%s: block %q axis %+v", w.Name, w.Block, w.Axis)
		}
		wantParams := map[string]string{"containers": strconv.Itoa(want), "container_count": strconv.Itoa(want), "container_base": "c" + strconv.Itoa(want)}
		if diff := cmp.Diff(wantParams, w.Params()); diff != "" {
			t.Errorf("%s: params (-want +got):\n%s", w.Name, diff)
		}
		if w.ScenarioFile != "put.scenario" {
			t.Errorf("%s: scenario file %q", w.Name, w.ScenarioFile)
		}
	}
	if diff := cmp.Diff([]string{"containers=1", "containers=32", "containers=512"}, names); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
}

// TestWorkloadForEachCellsOrder checks the matrix order (variant, then axis
// point, then repeat) and that the ids are sanitised and stable.
func TestWorkloadForEachCellsOrder(t *testing.T) {
	text := axisBase + `
workload "put" {
  for_each = { one = 1, many = 8 }
  name     = "put-${each.key}"
  scenario = { sizes = [{ name = "s", size_min = 1, size_max = 1 }], initial_files = { s = 1 },
               crud_profile = [1, 0, 0, 0], run_seconds = 5, container_count = each.value }` + axisAuth + `
}
workload "get" {
  scenario = { sizes = [{ name = "s", size_min = 1, size_max = 1 }], initial_files = { s = 1 },
               crud_profile = [0, 1, 0, 0], run_seconds = 5 }` + axisAuth + `
}`
	tb := mustLoad(t, text, LoadOptions{}, nil)
	var got []string
	for _, c := range Expand(tb) {
		got = append(got, c.ID)
	}
	// A map's elements come in key order: many before one.
	want := []string{
		"001-normal-put-many-r1", "002-normal-put-many-r2", "003-normal-put-one-r1", "004-normal-put-one-r2",
		"005-normal-get-r1", "006-normal-get-r2",
		"007-spp_1-put-many-r1", "008-spp_1-put-many-r2", "009-spp_1-put-one-r1", "010-spp_1-put-one-r2",
		"011-spp_1-get-r1", "012-spp_1-get-r2",
		"013-spp_2-put-many-r1", "014-spp_2-put-many-r2", "015-spp_2-put-one-r1", "016-spp_2-put-one-r2",
		"017-spp_2-get-r1", "018-spp_2-get-r2",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cell ids (-want +got):\n%s", diff)
	}
	again := mustLoad(t, text, LoadOptions{}, nil)
	for i, c := range Expand(again) {
		if c.ID != got[i] {
			t.Errorf("cell %d: id %q, then %q", i, got[i], c.ID)
		}
	}
	// The inline scenario sees each.value, and is named after its workload.
	for _, w := range tb.Workloads[:2] {
		sc := scenarioOfT(t, w)
		if want := map[string]int{"put-one": 1, "put-many": 8}[w.Name]; sc.ContainerCount != want || sc.Name != w.Name {
			t.Errorf("%s: container_count %d name %q, want %d", w.Name, sc.ContainerCount, sc.Name, want)
		}
		if w.Params()["put"] != strconv.Itoa(sc.ContainerCount) || w.Axis.Key != strings.TrimPrefix(w.Name, "put-") {
			t.Errorf("%s: params %v axis %+v", w.Name, w.Params(), w.Axis)
		}
	}
	if tb.Workloads[2].Params() != nil || tb.Workloads[2].Axis != nil {
		t.Errorf("get has no axis: %+v", tb.Workloads[2])
	}
}

// TestWorkloadForEachEverywhere uses each.value in the run's attributes and
// the prefill names the whole axis by its label.
func TestWorkloadForEachEverywhere(t *testing.T) {
	text := axisBase + `
workload "users" {
  for_each          = [2, 4]
  scenario          = "put.scenario"
  users             = each.value * 16
  duration          = "${each.value}s"
  agents_per_client = each.value
  auth {
    url  = "http://127.0.0.1:8080/auth/v1.0"
    user = "a:b"
    key  = "k${each.value}"
  }
}
prefill { workloads = ["users"] }`
	tb := mustLoad(t, text, LoadOptions{}, map[string]string{"put.scenario": putScenario})
	for i, w := range tb.Workloads {
		n := []int{2, 4}[i]
		users, dur := RunShape(w)
		if users != 16*n || int(dur.Seconds()) != n || w.AgentsPerClient != n || w.Auth.Key != "k"+strconv.Itoa(n) {
			t.Errorf("%s: users %d dur %s agents %d key %q", w.Name, users, dur, w.AgentsPerClient, w.Auth.Key)
		}
		if w.ScenarioSet != nil {
			t.Errorf("%s: scenario_set %v without the attribute", w.Name, w.ScenarioSet)
		}
	}
	if diff := cmp.Diff([]string{"users=2", "users=4"}, tb.Prefill.Workloads); diff != "" {
		t.Errorf("prefill workloads (-want +got):\n%s", diff)
	}
	steps := prefillSteps(tb)
	if len(steps) != 2 || steps[0].Workload != "users=2" || steps[1].Workload != "users=4" {
		t.Errorf("prefill steps %v", steps)
	}
}

// TestPlanJSONShowsAxis checks that plan --json lists the workloads with
// their axis points and gives every cell its params, beside the contract
// keys.
func TestPlanJSONShowsAxis(t *testing.T) {
	text := axisBase + `
workload "containers" {
  for_each     = [1, 8]
  scenario     = "put.scenario"
  scenario_set = { container_count = each.value }` + axisAuth + `
}`
	tb := mustLoad(t, text, LoadOptions{}, map[string]string{"put.scenario": putScenario})
	b, err := json.Marshal(NewPlan(tb).JSON())
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Workloads []struct {
			Name        string            `json:"name"`
			Block       string            `json:"block"`
			Axis        *AxisPoint        `json:"axis"`
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
	if err := NewPlan(tb).WriteText(&text2); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text2.String(), "containers=8: scenario put.scenario, 128 users, 15m0s; axis containers[1] = 8; container_count = 8") {
		t.Errorf("plan text lacks the axis point:\n%s", text2.String())
	}
}

// TestSeed003Testbed checks that testbeds/seed003-containers.hcl says what
// seed 003 did: 128 users writing 1-byte objects for 15 minutes into 1, 32,
// 64, 128, 256 and 512 containers, and into one container as it fills,
// three runs of each.
func TestSeed003Testbed(t *testing.T) {
	tb, diags := Load(filepath.Join("..", "testbeds", "seed003-containers.hcl"), LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var counts []int
	for _, w := range tb.Workloads {
		sc := scenarioOfT(t, w)
		if w.Fill != nil {
			if w.Name != "fill" || w.Users != 128 || sc.ContainerCount != 1 || w.Fill.ContainerObjects != 3200000 || w.Fill.Buckets != 10 {
				t.Errorf("%s: %d users, %d containers, fill %+v", w.Name, w.Users, sc.ContainerCount, w.Fill)
			}
			continue
		}
		counts = append(counts, sc.ContainerCount)
		users, dur := RunShape(w)
		if users != 128 || dur.Minutes() != 15 || sc.CrudProfile[0] != 1 || sc.CrudProfile[1]+sc.CrudProfile[2]+sc.CrudProfile[3] != 0 ||
			len(sc.Sizes) != 1 || sc.Sizes[0].SizeMin != 1 || sc.Sizes[0].SizeMax != 1 {
			t.Errorf("%s: %d users for %s, scenario %+v", w.Name, users, dur, sc)
		}
	}
	if diff := cmp.Diff([]int{1, 32, 64, 128, 256, 512}, counts); diff != "" {
		t.Errorf("container counts (-want +got):\n%s", diff)
	}
	if tb.Sweep.Repeat != 3 || len(Expand(tb)) != 21 {
		t.Errorf("repeat %d, %d cells; want 3 and 21", tb.Sweep.Repeat, len(Expand(tb)))
	}
}

// TestScenarioSetStructuredFields overrides lists, objects and fractions:
// each is kept as given (checkKept finds no default in their place).
func TestScenarioSetStructuredFields(t *testing.T) {
	text := axisBase + `
workload "size" {
  for_each = [1, 4096]
  scenario = "put.scenario"
  scenario_set = {
    sizes         = [{ name = "b", size_min = 1, size_max = each.value }]
    initial_files = { b = 2 }
    crud_profile  = [3, 1, 0, 0]
    run_seconds   = 2.5
  }` + axisAuth + `
}`
	tb := mustLoad(t, text, LoadOptions{}, map[string]string{"put.scenario": putScenario})
	for i, w := range tb.Workloads {
		sc := scenarioOfT(t, w)
		if sc.Sizes[0].SizeMax != []int64{1, 4096}[i] || sc.InitialFiles["b"] != 2 || sc.CrudProfile[0] != 3 || sc.RunSeconds != 2.5 {
			t.Errorf("%s: %+v", w.Name, sc)
		}
	}
}
