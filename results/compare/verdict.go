package compare

import (
	"slices"
	"strconv"
	"strings"

	"benchbed/results"
)

// VerdictMetrics are the metrics a pair's verdict decides: the three its
// lines show, then the medians a gate may watch.
var VerdictMetrics = []string{MetricReqPerS, results.MetricFirstP99, results.MetricLastP99,
	results.MetricFirstP50, results.MetricLastP50}

// ShownMetrics are the verdict's metrics its lines and tables show.
var ShownMetrics = VerdictMetrics[:3]

// pairVerdict decides VerdictMetrics of the pair's total (or its only
// operation type): over the repeats when both sides have two or more,
// else over batch means of each side's runs (the weaker evidence).
func pairVerdict(p *Pair, a, b pool, o CompareOptions) []results.Change {
	oc := gateOp(p)
	if oc == nil || p.FailedA || p.FailedB {
		return nil
	}
	kind := results.EvidenceBatches
	if len(a.cells) >= 2 && len(b.cells) >= 2 {
		kind = results.EvidenceRepeats
	}
	if faultPool(a) && faultPool(b) {
		return phaseVerdict(a, b, oc.Op, kind, o)
	}
	sa, sb := sideSamples(a, oc.Op, kind), sideSamples(b, oc.Op, kind)
	if kind == results.EvidenceRepeats && pairedPools(a, b) {
		addRounds(sa, a)
		addRounds(sb, b)
	}
	out := make([]results.Change, 0, len(VerdictMetrics))
	for _, m := range VerdictMetrics {
		c := results.Decide(m, sa[m], sb[m], results.VerdictOptions{Margin: o.Margin})
		if c.Evidence == results.EvidenceNone {
			figures(&c, oc)
		}
		out = append(out, c)
	}
	return out
}

// figures gives an undecided change the table's figures, so that it
// still says the change it could not decide.
func figures(c *results.Change, oc *OpCompare) {
	name := thresholdMetric(c.Metric)
	for _, m := range oc.Metrics {
		if m.Name == name && m.DeltaPct != nil {
			c.Base, c.Value, c.DeltaPct = m.A, m.B, *m.DeltaPct
		}
	}
}

// sideSamples returns one side's samples of every verdict metric.
func sideSamples(s pool, op, kind string) map[string]results.Samples {
	out := map[string]results.Samples{}
	if kind == results.EvidenceRepeats {
		for _, m := range VerdictMetrics {
			sm := results.Samples{Kind: kind}
			for _, c := range s.cells {
				sm.Values = append(sm.Values, opOf(c, op).Pick(m))
			}
			out[m] = sm
		}
		return out
	}
	for _, m := range VerdictMetrics {
		out[m] = results.Samples{Kind: kind}
	}
	for _, c := range s.cells {
		addBatches(out, s, c)
	}
	return out
}

// addBatches appends cell c's batch means of req/s and its batches'
// percentiles (read from its agents' streams) to out; what it cannot
// give is said in the samples' Why.
func addBatches(out map[string]results.Samples, s pool, c *results.Cell) {
	b, means, err := results.PlanBatches(c.PerSecond)
	if err != nil {
		for _, m := range VerdictMetrics {
			out[m] = undecided(out[m], "run too short", err.Error())
		}
		return
	}
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

// undecided marks s as giving no interval, keeping the first reason.
func undecided(s results.Samples, reason, why string) results.Samples {
	if s.Why == "" {
		s.Reason, s.Why = reason, why
	}
	return s
}

// ChangeOf returns the pair's verdict on metric, nil when it has none;
// of a fault pair, its verdict during the fault (PhasesOf has the others).
func (p *Pair) ChangeOf(metric string) *results.Change {
	for i := range p.Verdict {
		if p.Verdict[i].Metric == metric {
			return &p.Verdict[i]
		}
	}
	return nil
}

// PhasesOf returns the pair's verdicts on metric, one per phase of a fault
// pair (during, before, after), one in all of another.
func (p *Pair) PhasesOf(metric string) []*results.Change {
	var out []*results.Change
	for i := range p.Verdict {
		if p.Verdict[i].Metric == metric {
			out = append(out, &p.Verdict[i])
		}
	}
	return out
}

// pairedPools reports whether a's and b's repeats may be paired round by
// round: both of one run whose sweep interleaved its repeats.
func pairedPools(a, b pool) bool {
	return a.run != nil && a.run == b.run && Interleaved(a.run.Summary.Cells)
}

// addRounds gives every metric's samples of s the rounds of its cells,
// which sideSamples took in the pool's order.
func addRounds(out map[string]results.Samples, s pool) {
	rounds := make([]int, len(s.cells))
	for i, c := range s.cells {
		rounds[i] = c.Repeat
	}
	for m, sm := range out {
		if len(sm.Values) == len(rounds) {
			sm.Rounds = rounds
			out[m] = sm
		}
	}
}

// Interleaved reports whether a run's cells ran their repeats in rounds
// (sweep { interleave = true }, or repeat = "auto"): in the order of
// their ids, every cell of repeat r before any of repeat r+1, and more
// than one repeat.
func Interleaved(cells []results.Cell) bool {
	type idRepeat struct{ id, repeat int }
	var xs []idRepeat
	for _, c := range cells {
		num, _, ok := strings.Cut(c.ID, "-")
		n, err := strconv.Atoi(num)
		if !ok || err != nil || c.Repeat < 1 {
			return false
		}
		xs = append(xs, idRepeat{n, c.Repeat})
	}
	slices.SortFunc(xs, func(a, b idRepeat) int { return a.id - b.id })
	rounds := 0
	for i, x := range xs {
		if i > 0 && x.repeat < xs[i-1].repeat {
			return false
		}
		rounds = max(rounds, x.repeat)
	}
	return rounds > 1
}
