package report

import (
	"math"
	"time"

	"benchbed/results"
)

// Spread describes one figure over the repeats of a cell: the mean, the
// sample standard deviation (0 for one value), the extremes and the
// coefficient of variation (stddev/mean, 0 when the mean is 0).
type Spread struct {
	Mean   float64 `json:"mean"`
	StdDev float64 `json:"stddev"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	CV     float64 `json:"cv"`
}

// NewSpread computes the Spread of xs; all zero for none.
func NewSpread(xs []float64) Spread {
	if len(xs) == 0 {
		return Spread{}
	}
	s := Spread{Min: math.Inf(1), Max: math.Inf(-1)}
	var sum float64
	for _, x := range xs {
		sum += x
		s.Min, s.Max = min(s.Min, x), max(s.Max, x)
	}
	s.Mean = sum / float64(len(xs))
	if len(xs) > 1 {
		var ss float64
		for _, x := range xs {
			ss += (x - s.Mean) * (x - s.Mean)
		}
		s.StdDev = math.Sqrt(ss / float64(len(xs)-1))
	}
	if s.Mean != 0 {
		s.CV = s.StdDev / s.Mean
	}
	return s
}

// RepeatGroup aggregates the repeats of one variant and workload (the
// cells that differ only by their repeat). Only the ok cells count in the
// spreads; Cells lists every cell of the group.
type RepeatGroup struct {
	Variant  string   `json:"variant"`
	Workload string   `json:"workload"`
	Cells    []string `json:"cells"`
	OK       int      `json:"ok"` // cells that count in the spreads
	ReqPerS  Spread   `json:"req_per_s"`
	// First-byte latency of the cells' totals, seconds.
	FirstByteMean Spread `json:"first_byte_mean"`
	FirstByteP95  Spread `json:"first_byte_p95"`
	FirstByteP99  Spread `json:"first_byte_p99"`
	Errors        int64  `json:"errors"` // failed operations, all repeats
}

type groupKey struct{ variant, workload string }

// Groups splits cells by variant and workload, in the order each pair
// first appears: one group per pair, repeated or not.
func Groups(cells []results.Cell) [][]results.Cell {
	idx := map[groupKey]int{}
	var out [][]results.Cell
	for _, c := range cells {
		k := groupKey{c.Variant, c.Workload}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], c)
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
	var row results.RepeatRow
	var mean, p95, p99 []float64
	for _, c := range cells {
		g.Cells = append(g.Cells, cellName(c))
		g.Errors += c.Total.Errors
		if c.Status != "ok" {
			continue
		}
		g.OK++
		row.Runs = append(row.Runs, c.Total)
		mean = append(mean, c.Total.FirstByte.Mean)
		p95 = append(p95, c.Total.FirstByte.P95)
		p99 = append(p99, c.Total.FirstByte.P99)
	}
	// req/s as seed 003's table has it (results.RepeatRow), so both agree.
	if st := row.Stats(); st.N > 0 {
		g.ReqPerS = Spread{Mean: st.ReqPerS, StdDev: st.ReqStdDev, Min: st.ReqMin, Max: st.ReqMax}
		if st.ReqPerS != 0 {
			g.ReqPerS.CV = st.ReqStdDev / st.ReqPerS
		}
	}
	g.FirstByteMean, g.FirstByteP95, g.FirstByteP99 = NewSpread(mean), NewSpread(p95), NewSpread(p99)
	return g
}

// Step is one journal step with its outcome and duration.
type Step struct {
	Name     string
	Cell     string
	Host     string
	Status   string // ok, failed, skipped, or "unfinished" (no outcome)
	Start    time.Time
	Duration time.Duration
	Detail   string // a failed step's error (masked by the sweep)
}

type stepKey struct{ name, cell, host string }

// Steps pairs each journal "started" entry with the outcome that follows
// it, in the order the steps started. A step that never ended (the run was
// killed) is "unfinished", lasting until the journal's last entry.
func Steps(entries []results.Entry) []Step {
	var out []Step
	open := map[stepKey]int{}
	for _, e := range entries {
		k := stepKey{e.Step, e.Cell, e.Host}
		if e.Status == results.StepStarted {
			open[k] = len(out)
			out = append(out, Step{Name: e.Step, Cell: e.Cell, Host: e.Host, Status: "unfinished", Start: e.Time})
			continue
		}
		i, ok := open[k]
		if !ok { // an outcome without a start: an instant step
			out = append(out, Step{Name: e.Step, Cell: e.Cell, Host: e.Host, Status: e.Status, Start: e.Time, Detail: failDetail(e)})
			continue
		}
		delete(open, k)
		out[i].Status, out[i].Duration, out[i].Detail = e.Status, e.Time.Sub(out[i].Start), failDetail(e)
	}
	if len(entries) > 0 {
		last := entries[len(entries)-1].Time
		for _, i := range open {
			out[i].Duration = last.Sub(out[i].Start)
		}
	}
	return out
}

// failDetail keeps a failed step's detail (its error); an ok step's detail
// only repeats its duration.
func failDetail(e results.Entry) string {
	if e.Status == results.StepOK {
		return ""
	}
	return e.Detail
}
