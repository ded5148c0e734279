package decode

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"benchbed/plan"
	"benchbed/plan/scenario"
)

// axisBase is a valid testbed without workloads; tests append them.
var axisBase = fixture("axis-base.hcl")

// putScenario writes 1-byte objects; container_count is overridden.
var putScenario = fixture("put.scenario")

var axisAuth = fixture("axis-auth.hcl.part")

func scenarioOfT(t *testing.T, w *plan.Workload) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse(w.ScenarioJSON)
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
	for _, c := range plan.Expand(tb) {
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
	for i, c := range plan.Expand(again) {
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
		users, dur := plan.RunShape(w)
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
}

// TestSeed003Testbed checks that testbeds/seed003-containers.hcl says what
// seed 003 did: 128 users writing 1-byte objects for 15 minutes into 1, 32,
// 64, 128, 256 and 512 containers, and into one container as it fills,
// three runs of each.
func TestSeed003Testbed(t *testing.T) {
	tb, diags := Load(filepath.Join("..", "..", "testbeds", "seed003-containers.hcl"), LoadOptions{})
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
		users, dur := plan.RunShape(w)
		if users != 128 || dur.Minutes() != 15 || sc.CrudProfile[0] != 1 || sc.CrudProfile[1]+sc.CrudProfile[2]+sc.CrudProfile[3] != 0 ||
			len(sc.Sizes) != 1 || sc.Sizes[0].SizeMin != 1 || sc.Sizes[0].SizeMax != 1 {
			t.Errorf("%s: %d users for %s, scenario %+v", w.Name, users, dur, sc)
		}
	}
	if diff := cmp.Diff([]int{1, 32, 64, 128, 256, 512}, counts); diff != "" {
		t.Errorf("container counts (-want +got):\n%s", diff)
	}
	if tb.Sweep.Repeat != 3 || len(plan.Expand(tb)) != 21 {
		t.Errorf("repeat %d, %d cells; want 3 and 21", tb.Sweep.Repeat, len(plan.Expand(tb)))
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
