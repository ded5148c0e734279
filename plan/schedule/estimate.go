package schedule

import (
	"fmt"
	"time"

	"benchbed/plan"
)

// AssumePrefillPerAg is the assumed rate of a prefill: objects created per
// second by one prefill agent (a guess for a LAN lab, printed with every
// estimate).
const AssumePrefillPerAg = 250.0

// Estimate is the time a sweep should take.
type Estimate struct {
	Total       time.Duration   // sum of PerCell, Wide and the prefill
	MaxTotal    time.Duration   // Total with every round of repeat = "auto" run (Schedule.Rounds)
	PerCell     []time.Duration // steps of each cell, prefill excluded
	Wide        time.Duration   // the run-wide steps before and after the cells, prefill excluded
	Prefill     time.Duration   // creating the initial objects (0 without prefill)
	Unbounded   int             // runs bounded by operation count, not time: not in Total
	Commands    int             // command workloads' runs: as long as their commands, not in Total
	Source      string          // where the step times come from (Costs.Source)
	Assumptions []string        // what the figures assume
}

// Reestimate recomputes p's estimate with the step times c (DefaultCosts
// when nil), as `benchbed plan` does with the costs learnt from the
// testbed's earlier runs.
func (p *Schedule) Reestimate(c *Costs) {
	if c == nil {
		c = DefaultCosts(p.Testbed)
	}
	p.Estimate = estimate(p, c)
	if p.Rounds != nil {
		p.addRounds(c)
	}
}

// estimate adds up the steps of p at the costs c.
func estimate(p *Schedule, c *Costs) Estimate {
	e := Estimate{Source: c.Source, Assumptions: []string{
		"step times: " + c.Source,
		fmt.Sprintf("warm-ups and runs last as configured, plus %.1f s each to start the agents", c.Lead.Seconds()),
		fmt.Sprintf("prefill creates %.0f objects/s per agent (an existing prefill is resumed and takes less)", AssumePrefillPerAg),
	}}
	for _, s := range p.Before {
		if s.Kind == StepPrefill && !s.Unchanged {
			e.Prefill += prefillTime(p.Testbed.Workload(s.Workload), s.Agents)
		}
	}
	for _, kind := range append(Kinds(p.Before), Kinds(p.Finally)...) {
		if kind != StepPrefill {
			e.Wide += c.Wide[kind]
		}
	}
	for i, cp := range p.Cells {
		d := e.cellTime(p.Testbed, c, cp.Steps, i == 0)
		e.PerCell = append(e.PerCell, d)
		e.Total += d
	}
	if e.Unbounded > 0 {
		e.Assumptions = append(e.Assumptions, fmt.Sprintf("%d runs end after an operation count or a fill target and are not counted", e.Unbounded))
	}
	if e.Commands > 0 {
		e.Assumptions = append(e.Assumptions, fmt.Sprintf("%d command workload runs last as long as their commands and are not counted", e.Commands))
	}
	e.Total += e.Prefill + e.Wide
	e.MaxTotal = e.Total
	return e
}

// cellTime is one cell's steps at the costs c; first: the sweep's first cell.
func (e *Estimate) cellTime(tb *plan.Testbed, c *Costs, steps []Step, first bool) time.Duration {
	var d time.Duration
	for _, kind := range Kinds(steps) {
		if !measured(kind) {
			d += c.cellCost(kind, first, allUnchanged(steps, kind))
			continue
		}
		for _, s := range steps {
			if s.Kind != kind {
				continue
			}
			if w := tb.Workload(s.Workload); w != nil && w.IsCommand() {
				e.Commands++
				continue
			}
			if s.Duration == 0 {
				e.Unbounded++
			}
			d += s.Duration + c.Lead
		}
	}
	return d
}

// prefillTime is the assumed time to create w's initial files with agents.
func prefillTime(w *plan.Workload, agents int) time.Duration {
	n := plan.InitialObjects(w)
	if n == 0 || agents < 1 {
		return 0
	}
	return time.Duration(float64(n) / (AssumePrefillPerAg * float64(agents)) * float64(time.Second))
}

// EstimateError says how far the estimate e of a sweep was from the time
// it took, for the sweep's end: "took 4m44s, estimated 4m58s (+5%; step
// times learnt from ...)"; e is the estimate of the cells the sweep ran,
// with costs that do not include its own journal.
func EstimateError(e Estimate, took time.Duration) string {
	if took <= 0 {
		return fmt.Sprintf("estimated %s", short(e.Total))
	}
	pct := 100 * (e.Total - took).Seconds() / took.Seconds()
	return fmt.Sprintf("took %s, estimated %s (%+.0f%%; %s)", short(took), short(e.Total), pct, e.Source)
}
