package sweep

import (
	"context"
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/plan/schedule"
	"benchbed/results"
)

// variantsSweeper is a bare sweeper of variants a, b and c, workload w of
// repeat = "auto" up to 6 on b and c only (noisy: every round runs), and
// workload x on a only; every cell is finished already, as in a resumed
// sweep, with the req/s of figures (by variant, one per repeat).
func variantsSweeper(t *testing.T, only ...string) *Sweeper {
	s := bareSweeper(t)
	s.finished = map[string]bool{}
	s.opts.Only = only
	s.tb.Sweep.Repeat = 1
	s.tb.Workloads = []*plan.Workload{
		{Name: "w", AutoRepeat: &plan.AutoRepeat{Max: 6, Effect: 0.05, Power: 0.8}, Variants: []string{"b", "c"}},
		{Name: "x", Variants: []string{"a"}},
	}
	for _, v := range []string{"a", "b", "c"} {
		s.tb.Variants = append(s.tb.Variants, &plan.Variant{Name: v})
	}
	figures := map[string][]float64{"a": {500}, "b": {1000, 700, 1300, 900, 1200, 800}, "c": {1100, 800, 1200, 950, 700, 1250}}
	for _, c := range schedule.AllCells(s.tb) {
		res := results.Cell{ID: c.ID, Variant: c.Variant.Name, Workload: c.Workload.Name, Repeat: c.Repeat, Status: results.StatusOK,
			Total: results.OpSummary{Count: 10, ReqPerS: figures[c.Variant.Name][c.Repeat-1]}}
		if err := s.run.WriteCell(c.ID, &res); err != nil {
			t.Fatal(err)
		}
		s.finished[c.ID] = true
	}
	return s
}

// TestSweepWorkloadVariants: the sweep runs only the pairs the workloads'
// variants select, its rounds of repeat = "auto" compare w's first
// variant (b, the baseline) with c, and its table has a row per pair that
// ran and none of the pairs left out.
func TestSweepWorkloadVariants(t *testing.T) {
	s := variantsSweeper(t)
	if err := s.runCells(context.Background()); err != nil {
		t.Fatal(err)
	}
	ran := map[string]int{}
	for _, c := range s.cells {
		ran[c.cell.Variant.Name+"/"+c.cell.Workload.Name]++
	}
	if len(ran) != 3 || ran["a/x"] != 1 || ran["b/w"] != 6 || ran["c/w"] != 6 {
		t.Fatalf("ran %v, want a/x once, b/w and c/w 6 times", ran)
	}
	stops := s.repeatStops()
	if len(stops) != 1 || stops[0].Baseline != "b" || stops[0].Variant != "c" || stops[0].Kind != "max" {
		t.Fatalf("repeat auto's stops %+v, want c against b", stops)
	}
	var tbl strings.Builder
	if err := s.Table(&tbl); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| a / x | 1/1 |", "| b / w | 6/6 |", "| c / w | 6/6 |", "repeat auto, w: c against b: max 6 repeats reached"} {
		if !strings.Contains(tbl.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, tbl.String())
		}
	}
	for _, gone := range []string{"a / w", "b / x", "c / x", "| 0/0 |"} {
		if strings.Contains(tbl.String(), gone) {
			t.Errorf("the table has %q:\n%s", gone, tbl.String())
		}
	}
}

// TestSweepOnlyOfWorkloadVariants: --only c runs w's cells of c alone
// (nothing to compare: no round), and prefills and checks w only.
func TestSweepOnlyOfWorkloadVariants(t *testing.T) {
	s := variantsSweeper(t, "c")
	if err := s.runCells(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, c := range s.cells {
		if c.cell.Variant.Name != "c" || c.cell.Workload.Name != "w" || c.cell.Repeat > 4 {
			t.Errorf("--only c ran %s", c.cell.ID)
		}
	}
	if len(s.cells) != 4 {
		t.Errorf("--only c ran %d cells, want w's 4 planned repeats", len(s.cells))
	}
	if sw := s.tb.Swept(s.opts.Only); len(sw.Workloads) != 1 || sw.Workloads[0].Name != "w" {
		t.Errorf("the workloads --only c prefills: %d", len(sw.Workloads))
	}
}
