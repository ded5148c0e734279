package compare

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/aclements/go-moremath/stats"
	"golang.org/x/perf/benchmath"

	"benchbed/results"
	"benchbed/results/rundir"
)

// Test is a significance test of one metric in benchstat's manner: the
// Mann-Whitney U test (benchmath.AssumeNothing) at level Alpha.
type Test struct {
	Samples     string   `json:"samples"` // SamplesRepeats or SamplesPerSecond
	P           float64  `json:"p"`       // p-value; the difference is significant when P <= Alpha
	N1          int      `json:"n1"`      // sample sizes
	N2          int      `json:"n2"`
	Alpha       float64  `json:"alpha"`
	Significant bool     `json:"significant"`
	Warnings    []string `json:"warnings,omitempty"`
}

// String gives "p=0.008 n=5" or "p=0.008 n=5+4", as benchstat does.
func (t *Test) String() string {
	return benchmath.Comparison{P: t.P, N1: t.N1, N2: t.N2, Alpha: t.Alpha}.String()
}

// significance tests whether samples a and b differ; nil without samples.
func significance(a, b []float64, kind string, alpha float64) *Test {
	if len(a) == 0 || len(b) == 0 {
		return nil
	}
	th := &benchmath.Thresholds{CompareAlpha: alpha}
	c := benchmath.AssumeNothing.Compare(benchmath.NewSample(slices.Clone(a), th), benchmath.NewSample(slices.Clone(b), th))
	t := &Test{Samples: kind, P: c.P, N1: c.N1, N2: c.N2, Alpha: alpha, Significant: c.P <= c.Alpha}
	for _, w := range c.Warnings {
		if !errors.Is(w, stats.ErrSamplesEqual) { // '~' says it
			t.Warnings = append(t.Warnings, w.Error())
		}
	}
	return t
}

var repeatsNeeded sync.Map // alpha -> int

// RepeatsNeeded returns the fewest samples per side with which the U test
// can find a difference at level alpha (4 at 0.05), found by asking
// benchmath to compare two fully separated samples of growing size; 0 when
// none up to 50 can.
func RepeatsNeeded(alpha float64) int {
	if v, ok := repeatsNeeded.Load(alpha); ok {
		return v.(int)
	}
	n := 0
	th := &benchmath.Thresholds{CompareAlpha: alpha}
	for k := 1; k <= 50 && n == 0; k++ {
		a, b := make([]float64, k), make([]float64, k)
		for i := range k {
			a[i], b[i] = float64(i), float64(k+i)
		}
		if c := benchmath.AssumeNothing.Compare(benchmath.NewSample(a, th), benchmath.NewSample(b, th)); c.P <= alpha {
			n = k
		}
	}
	repeatsNeeded.Store(alpha, n)
	return n
}

// compareOp computes one operation type's metrics.
func compareOp(p *Pair, op string, only bool, a, b pool, o CompareOptions) OpCompare {
	oc := OpCompare{Op: op}
	ca, cb := a.cells, b.cells
	ra, rb := reqRates(ca, op), reqRates(cb, op)
	req := newMetric(MetricReqPerS, cmpMean(ra), cmpMean(rb))
	switch {
	case p.Samples == SamplesRepeats:
		req.Test = significance(ra, rb, SamplesRepeats, o.Alpha)
	case op == "total" || only:
		req.Test = significance(perSecondSamples(ca), perSecondSamples(cb), SamplesPerSecond, o.Alpha)
	}
	oc.Metrics = append(oc.Metrics, req)
	la, lb := latency(p, a, op, o), latency(p, b, op, o)
	kinds := []string{"first-byte"}
	if o.LastByte {
		kinds = append(kinds, "last-byte")
	}
	for _, kind := range kinds {
		for _, q := range []string{"p50", "p99"} {
			m := newMetric(kind+" "+q+" (s)", pickLatency(la, kind, q), pickLatency(lb, kind, q))
			if p.Samples == SamplesRepeats {
				m.Test = significance(perRepeat(ca, op, kind, q), perRepeat(cb, op, kind, q), SamplesRepeats, o.Alpha)
			}
			oc.Metrics = append(oc.Metrics, m)
		}
	}
	oc.Metrics = append(oc.Metrics, Metric{Name: MetricErrors, A: errorSum(ca, op), B: errorSum(cb, op)})
	return oc
}

// errorSum returns the failed operations of op in every cell.
func errorSum(cells []*results.Cell, op string) float64 {
	var n int64
	for _, c := range cells {
		n += opOf(c, op).Errors
	}
	return float64(n)
}

func newMetric(name string, a, b float64) Metric {
	m := Metric{Name: name, A: a, B: b}
	if a != 0 {
		d := (b/a - 1) * 100
		m.DeltaPct = &d
	}
	return m
}

func reqRates(cells []*results.Cell, op string) []float64 {
	out := make([]float64, len(cells))
	for i, c := range cells {
		out[i] = opOf(c, op).ReqPerS
	}
	return out
}

func cmpMean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func cmpMedian(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// latencies is one side's first- and last-byte statistics of an op.
type latencies struct{ first, last results.Stats }

func pickLatency(l latencies, kind, q string) float64 {
	s := l.first
	if kind == "last-byte" {
		s = l.last
	}
	if q == "p99" {
		return s.P99
	}
	return s.P50
}

func perRepeat(cells []*results.Cell, op, kind, q string) []float64 {
	out := make([]float64, len(cells))
	for i, c := range cells {
		s := opOf(c, op)
		out[i] = pickLatency(latencies{s.FirstByte, s.LastByte}, kind, q)
	}
	return out
}

// latency returns a side's statistics of op: the cell's own for one cell,
// else their merged histograms' (the agents' streams) or, when those
// cannot be read, the median of the repeats'.
func latency(p *Pair, s pool, op string, o CompareOptions) latencies {
	cells := s.cells
	if len(cells) == 1 {
		s := opOf(cells[0], op)
		return latencies{s.FirstByte, s.LastByte}
	}
	l, err := mergedLatency(s.run, cells, op)
	if err == nil {
		return l
	}
	if !slices.Contains(p.Notes, err.Error()) {
		p.Notes = append(p.Notes, err.Error())
	}
	l = latencies{}
	l.first.P50 = cmpMedian(perRepeat(cells, op, "first-byte", "p50"))
	l.first.P99 = cmpMedian(perRepeat(cells, op, "first-byte", "p99"))
	l.last.P50 = cmpMedian(perRepeat(cells, op, "last-byte", "p50"))
	l.last.P99 = cmpMedian(perRepeat(cells, op, "last-byte", "p99"))
	return l
}

// mergedLatency merges the cells' histograms of op (every op for "total").
func mergedLatency(r *rundir.RunResults, cells []*results.Cell, op string) (latencies, error) {
	h := results.NewOpHists()
	for _, c := range cells {
		rec, err := r.ReadStreams(c)
		if err != nil {
			return latencies{}, fmt.Errorf("latency of pooled repeats: median of the repeats' percentiles (histograms of %s: %v)", cellName(c), err)
		}
		for name, oh := range rec {
			if op == "total" || name == op {
				h.Merge(oh)
			}
		}
	}
	return latencies{h.FirstByte.Stats(), h.LastByte.Stats()}, nil
}
