package report

import (
	"benchbed/results"
)

// RepeatGroup aggregates the repeats of one variant and workload (the
// cells that differ only by their repeat). Only the ok cells count in the
// spreads; Cells lists every cell of the group.
type RepeatGroup struct {
	Variant  string         `json:"variant"`
	Workload string         `json:"workload"`
	Cells    []string       `json:"cells"`
	OK       int            `json:"ok"` // cells that count in the spreads
	ReqPerS  results.Spread `json:"req_per_s"`
	// First-byte latency of the cells' totals, seconds.
	FirstByteMean results.Spread `json:"first_byte_mean"`
	FirstByteP95  results.Spread `json:"first_byte_p95"`
	FirstByteP99  results.Spread `json:"first_byte_p99"`
	Errors        int64          `json:"errors"` // failed operations, all repeats
}

// Groups splits cells by variant and workload (results.Groups), in the
// order each pair first appears: one group per pair, repeated or not.
func Groups(cells []results.Cell) [][]results.Cell {
	var out [][]results.Cell
	for _, idx := range results.Groups(cells) {
		g := make([]results.Cell, 0, len(idx))
		for _, i := range idx {
			g = append(g, cells[i])
		}
		out = append(out, g)
	}
	return out
}

// Repeats aggregates every variant and workload that has more than one
// cell (sweep.repeat > 1), in the order of their first cell.
func Repeats(cells []results.Cell) []RepeatGroup {
	var out []RepeatGroup
	for _, g := range Groups(cells) {
		if len(g) > 1 {
			out = append(out, aggregate(g))
		}
	}
	return out
}

func aggregate(cells []results.Cell) RepeatGroup {
	g := RepeatGroup{Variant: cells[0].Variant, Workload: cells[0].Workload}
	var req, mean, p95, p99 []float64
	for _, c := range cells {
		g.Cells = append(g.Cells, cellName(c))
		g.Errors += c.Total.Errors
		if !c.OK() {
			continue
		}
		g.OK++
		req = append(req, c.Total.ReqPerS)
		mean = append(mean, c.Total.FirstByte.Mean)
		p95 = append(p95, c.Total.FirstByte.P95)
		p99 = append(p99, c.Total.FirstByte.P99)
	}
	// req/s by results.NewSpread, as the repeats' table (results.RepeatRow), so both agree.
	g.ReqPerS = results.NewSpread(req)
	g.FirstByteMean, g.FirstByteP95, g.FirstByteP99 = results.NewSpread(mean), results.NewSpread(p95), results.NewSpread(p99)
	return g
}
