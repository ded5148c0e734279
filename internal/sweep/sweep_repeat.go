package sweep

import (
	"context"
	"strings"

	"benchbed/internal/sweep/summary"
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
// every pair of each repeat = "auto" workload (summary.RepeatStops).
func (s *Sweeper) repeatVerdicts() []results.RepeatStop {
	return summary.RepeatStops(s.tb, s.summaryCells())
}
