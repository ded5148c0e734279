package summary

import (
	"benchbed/plan"
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
