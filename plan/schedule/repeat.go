package schedule

import (
	"fmt"
	"strings"
	"time"

	"benchbed/plan"
)

// Round is one round of repeat = "auto": the cells of repeat number
// Repeat of every workload whose max_repeat reaches it, variant by
// variant (those the workload runs on: plan.Workload.RunsOn), rotated as
// interleaved rounds are (plan.Testbed.RoundVariants). The sweep runs a round's cells of the (variant, workload)
// pairs compare's test has not decided yet, and none once all are.
type Round struct {
	Repeat int
	Cells  []plan.Cell
}

// Rounds are tb's rounds of repeat = "auto" beyond the planned repeats
// (plan.Expand's), in order; their cells' indexes (and ids) follow the
// planned cells', counted as if every round ran, so that a cell's id does
// not depend on the decisions before it. None without repeat = "auto".
func Rounds(tb *plan.Testbed) []Round {
	top := 0
	for _, w := range tb.Workloads {
		if lo, hi := tb.Repeats(w); hi > lo {
			top = max(top, hi)
		}
	}
	var out []Round
	i := len(plan.Expand(tb))
	for r := 1; r <= top; r++ {
		rd := Round{Repeat: r}
		for _, v := range tb.RoundVariants(r) {
			for _, w := range tb.Workloads {
				if lo, hi := tb.Repeats(w); r > lo && r <= hi && w.RunsOn(v) {
					i++
					rd.Cells = append(rd.Cells, plan.Cell{ID: plan.CellID(i, v.Name, w.Name, r), Index: i, Variant: v, Workload: w, Repeat: r})
				}
			}
		}
		if len(rd.Cells) > 0 {
			out = append(out, rd)
		}
	}
	return out
}

// AllCells are every cell a sweep of tb may run: the planned ones, then
// the rounds' (a finished run's cells are found among them by id).
func AllCells(tb *plan.Testbed) []plan.Cell {
	cells := plan.Expand(tb)
	for _, rd := range Rounds(tb) {
		cells = append(cells, rd.Cells...)
	}
	return cells
}

// addRounds plans the rounds after the planned cells, each cell's steps
// as if every round before it ran, with their estimate (Estimate.Rounds
// and MaxTotal: the sweep's time if every round runs).
func (p *Schedule) addRounds(c *Costs) {
	var prev *plan.Variant
	if n := len(p.Cells); n > 0 {
		prev = p.Cells[n-1].Cell.Variant
	}
	p.Rounds = nil
	p.Estimate.MaxTotal = p.Estimate.Total
	for _, rd := range Rounds(p.Testbed) {
		for _, cell := range rd.Cells {
			cp := CellSteps(p.Testbed, prev, cell)
			prev = cell.Variant
			var scratch Estimate // its counts are the planned cells'
			d := scratch.cellTime(p.Testbed, c, cp.Steps, false)
			p.Rounds = append(p.Rounds, RoundCell{CellPlan: cp, Estimate: d})
			p.Estimate.MaxTotal += d
		}
	}
}

// RoundCell is a cell of a round of repeat = "auto", with its steps and
// estimate: it runs only if compare's test has not decided by then.
type RoundCell struct {
	CellPlan
	Estimate time.Duration
}

// repeatLines say, for `benchbed plan`, each repeat = "auto" workload's
// planned and most repeats.
func repeatLines(tb *plan.Testbed) []string {
	var out []string
	for _, w := range tb.Workloads {
		if w.AutoRepeat == nil {
			continue
		}
		lo, hi := tb.Repeats(w)
		of := "each variant"
		if w.Variants != nil {
			of = "each of its variants"
		}
		out = append(out, fmt.Sprintf("workload %q: repeat auto, %d repeats planned of %s, up to %d while compare's test has not decided", w.Name, lo, of, hi))
	}
	return out
}

// writeRounds prints the rounds of repeat = "auto" after the cells.
func writeRounds(b *strings.Builder, p *Schedule) {
	if len(p.Rounds) == 0 {
		return
	}
	fmt.Fprintf(b, "\nthen rounds of repeat auto, each only while compare's test has not decided its pairs (%d cells at most, ~%s):\n",
		len(p.Rounds), short(p.Estimate.MaxTotal-p.Estimate.Total))
	for _, rc := range p.Rounds {
		c := rc.Cell
		fmt.Fprintf(b, "  %s  variant %q, workload %q, repeat %d  (~%s)\n", c.ID, c.Variant.Name, c.Workload.Name, c.Repeat, short(rc.Estimate))
		for _, s := range rc.Steps {
			writeStep(b, p.Testbed, s)
		}
	}
}
