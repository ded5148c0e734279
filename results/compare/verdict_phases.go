package compare

import (
	"fmt"
	"math"

	"benchbed/results"
)

// VerdictPhases are the phases a fault pair's verdict decides, in the
// order it shows them: the fault's own first, then the state before it
// and the recovery after it.
var VerdictPhases = []string{results.PhaseDuring, results.PhaseBefore, results.PhaseAfter}

// Reasons a phase's samples give no interval.
const (
	reasonPhaseShort = "phase too short"
	reasonNoPhase    = "no such phase"
)

// faultPool reports whether every cell of s is a fault cell with phases:
// its per-second series changes level at the fault, so batch means of the
// whole run are no samples of one quantity, and a verdict is decided
// phase by phase.
func faultPool(s pool) bool {
	for _, c := range s.cells {
		if c.Fault == nil || len(c.Fault.Phases) == 0 {
			return false
		}
	}
	return len(s.cells) > 0
}

// phaseVerdict decides VerdictMetrics of a pair of fault cells in each of
// VerdictPhases, every change naming its phase: over the repeats'
// phase figures when both sides have two or more, else over batch means
// of each phase's own seconds.
func phaseVerdict(a, b pool, op, kind string, o CompareOptions) []results.Change {
	out := make([]results.Change, 0, len(VerdictPhases)*len(VerdictMetrics))
	for _, ph := range VerdictPhases {
		sa, sb := phaseSamples(a, op, kind, ph), phaseSamples(b, op, kind, ph)
		if kind == results.EvidenceRepeats && pairedPools(a, b) {
			addRounds(sa, a)
			addRounds(sb, b)
		}
		for _, m := range VerdictMetrics {
			c := results.Decide(m, sa[m], sb[m], results.VerdictOptions{Margin: o.Margin})
			c.Phase = ph
			if c.Evidence == results.EvidenceNone {
				phaseFigures(&c, a, b, op)
			}
			out = append(out, c)
		}
	}
	return out
}

// phaseSamples returns one side's samples of every verdict metric in
// phase ph.
func phaseSamples(s pool, op, kind, ph string) map[string]results.Samples {
	out := map[string]results.Samples{}
	for _, m := range VerdictMetrics {
		out[m] = results.Samples{Kind: kind}
	}
	for _, c := range s.cells {
		p := c.Fault.Phase(ph)
		if p == nil {
			for _, m := range VerdictMetrics {
				out[m] = undecided(out[m], reasonNoPhase, fmt.Sprintf("cell %s has no %s phase", cellName(c), ph))
			}
			continue
		}
		if kind == results.EvidenceRepeats {
			for _, m := range VerdictMetrics {
				sm := out[m]
				sm.Values = append(sm.Values, phaseOp(p, op).Pick(m))
				out[m] = sm
			}
			continue
		}
		addPhaseBatches(out, s, c, p)
	}
	return out
}

// phaseOp is operation op's row of phase p ("total": its total).
func phaseOp(p *results.Phase, op string) results.OpSummary {
	if op == "total" {
		return p.Total
	}
	return p.Ops[op]
}

// addPhaseBatches appends the batch means of req/s and the batches'
// percentiles of phase p of cell c (its seconds from the first whole one
// to the last whole one, without their first and last) to out.
func addPhaseBatches(out map[string]results.Samples, s pool, c *results.Cell, p *results.Phase) {
	lo := min(int(math.Ceil(p.StartS)), len(c.PerSecond))
	hi := max(lo, min(int(math.Floor(p.EndS)), len(c.PerSecond)))
	if len(c.PerSecond) == 0 {
		for _, m := range VerdictMetrics {
			out[m] = undecided(out[m], "no per-second series", "cell "+cellName(c)+" recorded no per-second series")
		}
		return
	}
	b, means, err := results.PlanBatches(c.PerSecond[lo:hi])
	if err != nil {
		why := fmt.Sprintf("the %s phase of %s (s %g-%g, %d whole seconds): too short for %d near-independent batches of its seconds",
			p.Name, cellName(c), p.StartS, p.EndS, hi-lo, results.VerdictMinBatches)
		for _, m := range VerdictMetrics {
			out[m] = undecided(out[m], reasonPhaseShort, why)
		}
		return
	}
	b.First += lo
	req := out[MetricReqPerS]
	req.Values = append(req.Values, means...)
	out[MetricReqPerS] = req
	bl := results.NewBatchLatency(b)
	if err := s.run.ReadIntervals(c, bl.Add); err != nil {
		for _, m := range results.LatencyMetrics {
			out[m] = undecided(out[m], "no per-batch latency",
				"one run a side, and no per-batch latency from its agents' streams ("+err.Error()+")")
		}
		return
	}
	for m, vs := range bl.Close() {
		sm := out[m]
		sm.Values = append(sm.Values, vs...)
		out[m] = sm
	}
}

// PhaseLabel says a phase for people: "during the fault".
func PhaseLabel(ph string) string {
	if ph == "" {
		return ""
	}
	return ph + " the fault"
}

// phaseFigures gives an undecided phase change the sides' mean figures of
// its phase, so that it still says the change it could not decide.
func phaseFigures(c *results.Change, a, b pool, op string) {
	mean := func(s pool) float64 {
		sum, n := 0.0, 0
		for _, cell := range s.cells {
			if p := cell.Fault.Phase(c.Phase); p != nil {
				sum += phaseOp(p, op).Pick(c.Metric)
				n++
			}
		}
		if n == 0 {
			return 0
		}
		return sum / float64(n)
	}
	c.Base, c.Value = mean(a), mean(b)
	if c.Base != 0 {
		c.DeltaPct = (c.Value/c.Base - 1) * 100
	}
}
