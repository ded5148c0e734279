package summary

import (
	"strings"

	"benchbed/plan"
	"benchbed/plan/schedule"
	"benchbed/results"
	"benchbed/results/compare"
)

// RepeatStops is compare's decision, from cells (in declaration order),
// on every pair of each repeat = "auto" workload of tb
// (compare.RepeatStops): summary.json's repeat_auto, and what the sweep's
// rounds run.
func RepeatStops(tb *plan.Testbed, cells []Cell) []results.RepeatStop {
	named := (&table{tb: tb, cells: cells}).namedCells()
	var out []results.RepeatStop
	for _, w := range tb.Workloads {
		if w.AutoRepeat == nil {
			continue
		}
		_, hi := tb.Repeats(w)
		rule := compare.RepeatRule{Alpha: plan.RepeatAlpha, Effect: w.AutoRepeat.Effect, Power: w.AutoRepeat.Power, Max: hi}
		out = append(out, compare.RepeatStops(named, w.Name, rule)...)
	}
	return out
}

// repeated reports whether tb's cells have repeats: sweep.repeat above 1
// or a workload of repeat = "auto".
func repeated(tb *plan.Testbed) bool {
	for _, w := range tb.Workloads {
		if _, hi := tb.Repeats(w); hi > 1 {
			return true
		}
	}
	return false
}

// RoundCells are the cells of round rd to run after cells: those of the
// pairs of a repeat = "auto" workload compare's test has not decided
// (RepeatStops), both sides, that run lets run (--only).
func RoundCells(tb *plan.Testbed, rd schedule.Round, cells []Cell, run func(plan.Cell) bool) []plan.Cell {
	open := map[string]bool{} // workload + "\x00" + variant
	for _, st := range RepeatStops(tb, cells) {
		if st.Kind == compare.VerdictMore {
			open[st.Workload+"\x00"+st.Baseline], open[st.Workload+"\x00"+st.Variant] = true, true
		}
	}
	var out []plan.Cell
	for _, c := range rd.Cells {
		if run(c) && open[c.Workload.Name+"\x00"+c.Variant.Name] {
			out = append(out, c)
		}
	}
	return out
}

// RepeatLines say why each repeat = "auto" pair stopped, one line each.
func RepeatLines(tb *plan.Testbed, cells []Cell) []string {
	var b strings.Builder
	_ = results.WriteRepeatStops(&b, RepeatStops(tb, cells))
	if b.Len() == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

// RunRounds runs tb's rounds of repeat = "auto" after the planned cells
// (schedule.Rounds) with run: each round the cells of the pairs compare's
// test has not decided yet (RoundCells, of the cells run so far, which
// cells gives), until none is left or max_repeat; then it logs why each
// pair stopped.
func RunRounds(tb *plan.Testbed, cells func() []Cell, selected func(plan.Cell) bool, run func(plan.Cell) error, logf func(string, ...any)) error {
	for _, rd := range schedule.Rounds(tb) {
		todo := RoundCells(tb, rd, cells(), selected)
		if len(todo) == 0 {
			break
		}
		logf("repeat auto: round %d, %d cell(s): compare's test has not decided yet", rd.Repeat, len(todo))
		for _, c := range todo {
			if err := run(c); err != nil {
				return err
			}
		}
	}
	for _, l := range RepeatLines(tb, cells()) {
		logf("%s", l)
	}
	return nil
}
