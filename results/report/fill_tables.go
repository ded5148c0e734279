package report

import (
	"fmt"

	"benchbed/results"
)

// fillTables are the tables of the fill experiments: for each variant and
// workload with fill buckets, its PUT latency per bucket (averaged over
// its repeats), then for each other variant of the same workload, the
// change per bucket from the first variant's. Cells whose buckets cannot
// be averaged or compared give a table that says why.
func (r *Report) fillTables() []table {
	series, err := FillSeriesOf(r.Run.Summary.Cells)
	if err != nil {
		return []table{fillProblem(err)}
	}
	var out []table
	for _, s := range series {
		out = append(out, table{Title: fmt.Sprintf("PUT latency by container fill: %s (%s; ms)", s.Name, repeatsOf(s.Repeats)),
			Header: results.FillHeader, Rows: results.FillRows(s.Buckets)})
	}
	for _, pair := range fillPairs(series) {
		base, other := pair[0], pair[1]
		d, err := results.FillDeltas(base.Buckets, other.Buckets)
		if err != nil {
			out = append(out, fillProblem(fmt.Errorf("%s and %s: %w", base.Name, other.Name, err)))
			continue
		}
		out = append(out, table{Title: fmt.Sprintf("PUT latency by container fill: %s against %s (last byte, ms)", other.Variant, base.Variant),
			Header: results.FillDeltaHeader(base.Variant, other.Variant), Rows: results.FillDeltaRows(d)})
	}
	return out
}

// repeatsOf says how many repeats a figure averages.
func repeatsOf(n int) string {
	if n == 1 {
		return "1 run"
	}
	return fmt.Sprintf("mean of %d repeats", n)
}

// fillPairs pairs each workload's first variant (the base) with each of
// its other variants, in the series' order.
func fillPairs(series []FillSeries) [][2]FillSeries {
	base := map[string]FillSeries{}
	var out [][2]FillSeries
	for _, s := range series {
		b, ok := base[s.Workload]
		if !ok {
			base[s.Workload] = s
			continue
		}
		out = append(out, [2]FillSeries{b, s})
	}
	return out
}

// fillProblem is a table that says why fill buckets are not shown.
func fillProblem(err error) table {
	return table{Title: "PUT latency by container fill: not shown", Header: []string{"problem"},
		Rows: [][]string{{err.Error()}}}
}
