package compare

import "benchbed/results"

// MetricCapacity is the row of capacities at the SLO: the mean of each
// side's cells' capacity searches.
const MetricCapacity = "capacity at SLO (req/s)"

// capacities returns the capacity of every cell whose search found one;
// nil unless every cell has one.
func capacities(cells []*results.Cell) []float64 {
	var out []float64
	for _, c := range cells {
		if c.Search == nil || c.Search.Capacity <= 0 {
			return nil
		}
		out = append(out, c.Search.Capacity)
	}
	return out
}

// addCapacity adds the capacity row to the pair's total (or its only
// operation) when both sides' cells were capacity searches: tested over
// repeats when there are enough, else a delta only.
func addCapacity(p *Pair, ca, cb []*results.Cell, o CompareOptions) {
	xa, xb := capacities(ca), capacities(cb)
	oc := gateOp(p)
	if xa == nil || xb == nil || oc == nil {
		return
	}
	m := newMetric(MetricCapacity, cmpMean(xa), cmpMean(xb))
	if p.Samples == SamplesRepeats {
		m.Test = significance(xa, xb, SamplesRepeats, o.Alpha)
	}
	oc.Metrics = append([]Metric{m}, oc.Metrics...)
}
