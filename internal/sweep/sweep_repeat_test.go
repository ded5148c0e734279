package sweep

import (
	"context"
	"strings"
	"testing"

	"benchbed/internal/sweep/summary"
	"benchbed/plan"
	"benchbed/plan/schedule"
	"benchbed/results"
)

// repeatSweeper is a bare sweeper of variants a, b (and c) and workload
// w of repeat = "auto" up to 6, whose cells are all finished already with
// the req/s of figures (by variant, one per repeat): the sweep keeps
// them instead of running them, as a resumed sweep does.
func repeatSweeper(t *testing.T, figures map[string][]float64, variants ...string) *Sweeper {
	s := bareSweeper(t)
	s.finished = map[string]bool{}
	s.tb.Sweep.Repeat = 1
	s.tb.Workloads = []*plan.Workload{{Name: "w", AutoRepeat: &plan.AutoRepeat{Max: 6, Effect: 0.05, Power: 0.8}}}
	for _, v := range variants {
		s.tb.Variants = append(s.tb.Variants, &plan.Variant{Name: v})
	}
	for _, c := range schedule.AllCells(s.tb) {
		res := results.Cell{ID: c.ID, Variant: c.Variant.Name, Workload: "w", Repeat: c.Repeat, Status: results.StatusOK,
			Total: results.OpSummary{Count: 10, ReqPerS: figures[c.Variant.Name][c.Repeat-1]}}
		if err := s.run.WriteCell(c.ID, &res); err != nil {
			t.Fatal(err)
		}
		s.finished[c.ID] = true
	}
	return s
}

// runRepeats runs the planned cells and the rounds; it returns the
// repeats that ran by variant.
func runRepeats(t *testing.T, s *Sweeper) map[string]int {
	if err := s.runCells(context.Background()); err != nil {
		t.Fatal(err)
	}
	ran := map[string]int{}
	for _, c := range s.cells {
		ran[c.cell.Variant.Name]++
	}
	return ran
}

func TestRepeatAutoRounds(t *testing.T) {
	noisy := []float64{1000, 700, 1300, 900, 1200, 800}
	noisyB := []float64{1100, 800, 1200, 950, 700, 1250}
	cases := []struct {
		name    string
		figures map[string][]float64
		ran     int // repeats of each
		kind    string
		why     string
	}{
		{"separated", map[string][]float64{"a": {1000, 1002, 998, 1001, 0, 0}, "b": {1100, 1102, 1098, 1101, 0, 0}}, 4, "separated", "separated at p=0.0286 after 4 repeats"},
		{"equal", map[string][]float64{"a": {1000, 1003, 997, 1001, 0, 0}, "b": {1002, 998, 1001, 999, 0, 0}}, 4, "no-difference", "no difference of 5% or more at power 1.00"},
		{"noisy", map[string][]float64{"a": noisy, "b": noisyB}, 6, "max", "max 6 repeats reached"},
		// One inversion in 4 repeats each (p=0.057) and a spread of 5 %: undecided;
		// the fifth repeats keep it to one (p=0.016): separated.
		{"separated late", map[string][]float64{"a": {1000, 1060, 940, 1080, 950, 0}, "b": {1070, 1130, 1100, 1150, 1120, 0}}, 5, "separated", "after 5 repeats"},
	}
	for _, c := range cases {
		s := repeatSweeper(t, c.figures, "a", "b")
		ran := runRepeats(t, s)
		stops := s.repeatStops()
		if ran["a"] != c.ran || ran["b"] != c.ran || len(stops) != 1 {
			t.Errorf("%s: ran %v, want %d of each; stops %+v", c.name, ran, c.ran, stops)
			continue
		}
		st := stops[0]
		if st.Kind != c.kind || !strings.Contains(st.Stopped, c.why) || st.Baseline != "a" || st.Variant != "b" || st.Repeats != c.ran {
			t.Errorf("%s: %+v, want %s and %q", c.name, st, c.kind, c.why)
		}
	}
}

// TestRepeatAutoRoundsRunOnlyTheUndecided: of b (separated from a at
// once) and c (noisy), the rounds run a and c only; the summary and the
// table say why each stopped.
func TestRepeatAutoRoundsRunOnlyTheUndecided(t *testing.T) {
	s := repeatSweeper(t, map[string][]float64{"a": {1000, 700, 1300, 900, 1200, 800}, "b": {2000, 2001, 2002, 2003, 0, 0},
		"c": {1100, 800, 1200, 950, 700, 1250}}, "a", "b", "c")
	if ran := runRepeats(t, s); ran["a"] != 6 || ran["b"] != 4 || ran["c"] != 6 {
		t.Fatalf("ran %v, want a and c 6 times, b 4", ran)
	}
	sum, err := s.writeSummary()
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.RepeatAuto) != 2 || sum.RepeatAuto[0].Kind != "separated" || sum.RepeatAuto[1].Kind != "max" {
		t.Fatalf("summary's repeat_auto: %+v", sum.RepeatAuto)
	}
	var tbl strings.Builder
	if err := s.Table(&tbl); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"repeat auto, w: b against a: separated at p=", "repeat auto, w: c against a: max 6 repeats reached", "| a | 6/6 |"} {
		if !strings.Contains(tbl.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, tbl.String())
		}
	}
}

// TestRepeatAutoAlone: one variant has nothing to compare: its planned
// repeats run, no round, and the summary says so.
func TestRepeatAutoAlone(t *testing.T) {
	s := repeatSweeper(t, map[string][]float64{"a": {1, 2, 3, 4, 5, 6}}, "a")
	if ran, stops := runRepeats(t, s), s.repeatStops(); ran["a"] != 4 || len(stops) != 1 || stops[0].Kind != "alone" {
		t.Fatalf("ran %v, stops %+v", ran, stops)
	}
}

// repeatStops is why the sweep's repeat = "auto" pairs stopped.
func (s *Sweeper) repeatStops() []results.RepeatStop {
	return summary.RepeatStops(s.tb, s.summaryCells())
}
