package sweep

import (
	"context"
	"fmt"
	"strings"

	"benchbed/plan"
	"benchbed/plan/schedule"
	"benchbed/results"
	"benchbed/results/compare"
)

// runRounds runs the rounds of repeat = "auto" after the planned cells
// (schedule.Rounds): before each, compare's test decides every pair of a
// workload's baseline (the first variant run) and another variant; a
// round runs the cells of the pairs not decided yet, both sides, and
// the rounds end once none is left or at max_repeat. Why each pair
// stopped is kept in s.stops (summary.json's repeat_auto) and logged.
func (s *Sweeper) runRounds(ctx context.Context, prev **plan.Variant) error {
	for _, rd := range schedule.Rounds(s.tb) {
		open := map[string]bool{} // workload + "\x00" + variant: run its cell
		for _, st := range s.repeatVerdicts() {
			if st.Kind == compare.VerdictMore {
				open[st.Workload+"\x00"+st.Baseline], open[st.Workload+"\x00"+st.Variant] = true, true
			}
		}
		var cells []plan.Cell
		for _, c := range rd.Cells {
			if s.selected(c) && open[c.Workload.Name+"\x00"+c.Variant.Name] {
				cells = append(cells, c)
			}
		}
		if len(cells) == 0 {
			break
		}
		s.logf("repeat auto: round %d, %d cell(s): compare's test has not decided yet", rd.Repeat, len(cells))
		for _, c := range cells {
			if err := s.runOne(ctx, c, prev); err != nil {
				return err
			}
		}
	}
	s.stops = s.repeatVerdicts()
	var b strings.Builder
	_ = results.WriteRepeatStops(&b, s.stops)
	for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if l != "" {
			s.logf("%s", l)
		}
	}
	return nil
}

// repeatVerdicts is compare's decision, from the cells run so far, on
// every pair of each repeat = "auto" workload: its baseline (the first
// variant run) against each other variant run, or the baseline alone.
// Kind is compare.VerdictMore while the pair needs another repeat.
func (s *Sweeper) repeatVerdicts() []results.RepeatStop {
	var out []results.RepeatStop
	for _, w := range s.tb.Workloads {
		if w.AutoRepeat == nil {
			continue
		}
		_, hi := s.tb.Repeats(w)
		rule := compare.RepeatRule{Alpha: plan.RepeatAlpha, Effect: w.AutoRepeat.Effect, Power: w.AutoRepeat.Power, Max: hi}
		vs, ran, samples := s.repeatSamples(w)
		if len(vs) == 1 {
			out = append(out, results.RepeatStop{Workload: w.Name, Baseline: vs[0], Variant: vs[0], Repeats: ran[vs[0]],
				Measured: len(samples[vs[0]]), Kind: "alone", Stopped: fmt.Sprintf("one variant ran, nothing to compare: %d repeats", ran[vs[0]])})
		}
		for _, v := range vs[min(1, len(vs)):] {
			base := vs[0]
			a, b := samples[base], samples[v]
			verdict := compare.NextRepeat(a, b, rule)
			st := results.RepeatStop{Workload: w.Name, Baseline: base, Variant: v, Repeats: min(ran[base], ran[v]),
				Measured: min(len(a), len(b)), Kind: verdict.Kind, Stopped: verdict.Why, Power: verdict.Power}
			if verdict.Test != nil {
				st.P = verdict.Test.P
			}
			if st.Kind == compare.VerdictMore && st.Repeats >= hi { // failed repeats left too few samples
				st.Kind, st.Stopped = compare.VerdictMax, fmt.Sprintf("max %d repeats reached: %s", hi, verdict.Why)
			}
			out = append(out, st)
		}
	}
	return out
}

// repeatSamples are the variants that ran cells of w, in the order of
// their first, with how many ran and the figure of each that finished:
// its capacity for a search, else its req/s.
func (s *Sweeper) repeatSamples(w *plan.Workload) (vs []string, ran map[string]int, samples map[string][]float64) {
	ran, samples = map[string]int{}, map[string][]float64{}
	for _, c := range s.cells {
		if c.cell.Workload.Name != w.Name {
			continue
		}
		v := c.cell.Variant.Name
		if ran[v] == 0 {
			vs = append(vs, v)
		}
		ran[v]++
		if c.res.Status != results.StatusOK {
			continue
		}
		x := c.res.Total.ReqPerS
		if c.res.Search != nil {
			x = c.res.Search.Capacity
		}
		samples[v] = append(samples[v], x)
	}
	return vs, ran, samples
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
