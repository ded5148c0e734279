package compare

import (
	"benchbed/results"

	"maps"
	"slices"
)

// OpCommand is the "op" of a command workload's figures in a comparison:
// its cells have metrics (outparse's), not Swift operations.
const OpCommand = "command"

// hasMetrics reports whether some cell carries a command workload's metrics.
func hasMetrics(cells []*results.Cell) bool {
	return slices.ContainsFunc(cells, func(c *results.Cell) bool { return len(c.Metrics) > 0 })
}

// compareMetrics compares command workload cells: each metric of either
// side ("throughput (MB/s)"), the mean of the per-repeat figures, tested
// with Mann-Whitney over the repeats when both sides have enough of them.
func compareMetrics(p *Pair, a, b []*results.Cell, o CompareOptions) OpCompare {
	oc := OpCompare{Op: OpCommand}
	units := map[string]string{}
	for _, c := range append(slices.Clone(a), b...) {
		for name, f := range c.Metrics {
			units[name] = f.Unit
		}
	}
	for _, name := range slices.Sorted(maps.Keys(units)) {
		xa, xb := metricRepeats(a, name), metricRepeats(b, name)
		label := name
		if units[name] != "" {
			label += " (" + units[name] + ")"
		}
		m := newMetric(label, cmpMean(xa), cmpMean(xb))
		if p.Samples == SamplesRepeats {
			m.Test = significance(xa, xb, SamplesRepeats, o.Alpha)
		}
		oc.Metrics = append(oc.Metrics, m)
	}
	return oc
}

// metricRepeats lists metric name's value in each cell that has it.
func metricRepeats(cells []*results.Cell, name string) []float64 {
	var out []float64
	for _, c := range cells {
		if f, ok := c.Metrics[name]; ok {
			out = append(out, f.Value)
		}
	}
	return out
}
