package compare

import (
	"fmt"

	"benchbed/results"
)

// RepeatStops is repeat = "auto"'s decision, from the cells run so far
// (in the order they ran), on workload's pairs under rule r: its baseline
// (the first variant with a cell of it) against each other variant with
// one, or the baseline alone (Kind "alone"). A pair whose test wants
// another repeat has Kind VerdictMore, unless r.Max repeats of both ran
// (then VerdictMax: the failed ones left too few samples). The samples
// are the finished cells' req/s, a search's capacity.
func RepeatStops(cells []results.Cell, workload string, r RepeatRule) []results.RepeatStop {
	vs, ran, samples := repeatSamples(cells, workload)
	if len(vs) == 0 {
		return nil
	}
	base := vs[0]
	if len(vs) == 1 {
		return []results.RepeatStop{{Workload: workload, Baseline: base, Variant: base, Repeats: ran[base], Measured: len(samples[base]),
			Kind: "alone", Stopped: fmt.Sprintf("one variant ran, nothing to compare: %d repeats", ran[base])}}
	}
	var out []results.RepeatStop
	for _, v := range vs[1:] {
		a, b := samples[base], samples[v]
		verdict := NextRepeat(a, b, r)
		st := results.RepeatStop{Workload: workload, Baseline: base, Variant: v, Repeats: min(ran[base], ran[v]),
			Measured: min(len(a), len(b)), Kind: verdict.Kind, Stopped: verdict.Why, Power: verdict.Power}
		if verdict.Test != nil {
			st.P = verdict.Test.P
		}
		if st.Kind == VerdictMore && st.Repeats >= r.Max {
			st.Kind, st.Stopped = VerdictMax, fmt.Sprintf("max %d repeats reached: %s", r.Max, verdict.Why)
		}
		out = append(out, st)
	}
	return out
}

// repeatSamples are the variants with cells of workload, in the order of
// their first, with how many ran and the figure of each that finished.
func repeatSamples(cells []results.Cell, workload string) (vs []string, ran map[string]int, samples map[string][]float64) {
	ran, samples = map[string]int{}, map[string][]float64{}
	for _, c := range cells {
		if c.Workload != workload {
			continue
		}
		if ran[c.Variant] == 0 {
			vs = append(vs, c.Variant)
		}
		ran[c.Variant]++
		if !c.OK() {
			continue
		}
		x := c.Total.ReqPerS
		if c.Search != nil {
			x = c.Search.Capacity
		}
		samples[c.Variant] = append(samples[c.Variant], x)
	}
	return vs, ran, samples
}
