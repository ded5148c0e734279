package schedule

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"benchbed/plan"
)

// variantsLab is the lab's testbed (six variants) with its 64K_get of
// repeat = "auto" up to 5 on threads_per_disk=1 (by its block's label) and
// servers_per_port=2 only, and a workload "base" on normal alone.
func variantsLab(t *testing.T) *plan.Testbed {
	t.Helper()
	text := strings.Replace(readLab(t), "\n  duration ",
		"\n  repeat = \"auto\"\n  max_repeat = 5\n  variants = [\"servers_per_port=2\", \"threads_per_disk\"]\n  duration ", 1)
	text = strings.Replace(text, "\nprefill {", `
workload "base" {
  scenario = "64K_get_lab.scenario"
  duration = "5s"
  clients  = ["client1"]
  variants = ["normal"]
  auth {
    url  = "http://198.18.0.11:8080/auth/v1.0"
    user = "bench:bench"
    key  = var.auth_key
  }
}

prefill {`, 1)
	return mustLoad(t, text)
}

func cellIDs(cells []plan.Cell) []string {
	var out []string
	for _, c := range cells {
		out = append(out, c.ID)
	}
	return out
}

// TestWorkloadVariantsCells: Expand and the rounds of repeat = "auto"
// leave out the pairs a workload's variants do not select, the cells
// numbered in order without gaps.
func TestWorkloadVariantsCells(t *testing.T) {
	tb := variantsLab(t)
	want := []string{"001-normal-base-r1",
		"002-threads_per_disk_1-64K_get-r1", "003-threads_per_disk_1-64K_get-r2", "004-threads_per_disk_1-64K_get-r3", "005-threads_per_disk_1-64K_get-r4",
		"006-servers_per_port_2-64K_get-r1", "007-servers_per_port_2-64K_get-r2", "008-servers_per_port_2-64K_get-r3", "009-servers_per_port_2-64K_get-r4"}
	cells := plan.Expand(tb)
	if got := cellIDs(cells); !slices.Equal(got, want) {
		t.Fatalf("cells %q,\nwant %q", got, want)
	}
	for i, c := range cells {
		if c.Index != i+1 {
			t.Errorf("cell %s: index %d", c.ID, c.Index)
		}
	}
	rounds := Rounds(tb)
	if len(rounds) != 1 || rounds[0].Repeat != 5 {
		t.Fatalf("rounds %+v", rounds)
	}
	if got := cellIDs(rounds[0].Cells); !slices.Equal(got, []string{"010-threads_per_disk_1-64K_get-r5", "011-servers_per_port_2-64K_get-r5"}) {
		t.Errorf("round 5: %q", got)
	}
	if all := AllCells(tb); len(all) != 11 {
		t.Errorf("AllCells: %d", len(all))
	}
}

// TestWorkloadVariantsPlan: `benchbed plan` lists only the cells that
// run, says each restricted workload's variants and the steps of each
// cell after the one before it.
func TestWorkloadVariantsPlan(t *testing.T) {
	p := New(variantsLab(t))
	if len(p.Cells) != 9 || len(p.Rounds) != 2 {
		t.Fatalf("%d cells and %d round cells", len(p.Cells), len(p.Rounds))
	}
	var out strings.Builder
	if err := p.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"; on variants threads_per_disk=1, servers_per_port=2\n",
		"  base: scenario 64K_get_lab.scenario, 64 users, 5s; verify: off (default); on variants normal\n",
		`workload "64K_get": repeat auto, 4 repeats planned of each of its variants, up to 5 while compare's test has not decided`,
		"\ncells: 9 (repeat 1)\n",
		`  002-threads_per_disk_1-64K_get-r1  variant "threads_per_disk=1", workload "64K_get", repeat 1`,
		`  011-servers_per_port_2-64K_get-r5  variant "servers_per_port=2", workload "64K_get", repeat 5`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the plan lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), `variant "servers_per_port=1"`) {
		t.Errorf("the plan has a cell of a variant no workload runs on:\n%s", out.String())
	}
	// The first cell of 64K_get changes the object server from normal's.
	changed := false
	for _, s := range p.Cells[1].Steps {
		changed = changed || (s.Kind == StepPushConf && !s.Unchanged)
	}
	if !changed {
		t.Errorf("cell %s does not push the object server's conf after normal's cell: %+v", p.Cells[1].Cell.ID, p.Cells[1].Steps)
	}
	b, err := json.Marshal(p.JSON())
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Workloads []struct {
			Name     string
			Variants []string
		}
	}
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	if len(j.Workloads) != 2 || !slices.Equal(j.Workloads[0].Variants, []string{"threads_per_disk=1", "servers_per_port=2"}) ||
		!slices.Equal(j.Workloads[1].Variants, []string{"normal"}) {
		t.Errorf("plan --json's workloads: %+v", j.Workloads)
	}
	all, err := json.Marshal(New(mustLoad(t, readLab(t))).JSON())
	if err != nil || strings.Contains(string(all), `"variants"`) {
		t.Errorf("plan --json of workloads on every variant names variants (%v)", err)
	}
}

// readLab is lab.hcl's text with one 20 s run of each cell: the demo's
// three interleaved 8 s repeats left out, so that the tests built on it
// see each variant's cells in their own order.
func readLab(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "testbeds", "lab", "lab.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	const demo = "  repeat     = 3\n  interleave = true\n"
	if !strings.Contains(string(src), demo) {
		t.Fatalf("lab.hcl's sweep block lacks %q", demo)
	}
	text := strings.Replace(string(src), demo, "  repeat     = 1\n", 1)
	return strings.Replace(text, `  duration          = "8s"`, `  duration          = "20s"`, 1)
}

// TestSearchWorkloadVariants: a search workload on one variant has one
// cell, with its search step instead of a run.
func TestSearchWorkloadVariants(t *testing.T) {
	text := strings.Replace(readLab(t), `  duration          = "20s"`, `  variants          = ["servers_per_port=3"]
  search {
    slo  = { first_byte_p99 = "50ms" }
    from = 100
    to   = 800
  }`, 1)
	p := New(mustLoad(t, text))
	if len(p.Cells) != 1 || p.Cells[0].Cell.ID != "001-servers_per_port_3-64K_get-r1" {
		t.Fatalf("cells %+v", p.Cells)
	}
	kinds := Kinds(p.Cells[0].Steps)
	if !slices.Contains(kinds, StepSearch) || slices.Contains(kinds, StepRun) {
		t.Errorf("the search cell's steps %q", kinds)
	}
}
