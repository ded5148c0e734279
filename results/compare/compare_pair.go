package compare

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"benchbed/results"
	"benchbed/results/rundir"
)

// Kinds of samples a pair's significance tests use.
const (
	SamplesRepeats   = "repeats"    // one req/s (or percentile) per repeat
	SamplesPerSecond = "per-second" // successful operations in each second, first and last dropped
	SamplesNone      = "none"       // no samples: no test
)

// Pair compares one (variant, workload) group of A with one of B: their
// repeats pooled, or one cell each.
type Pair struct {
	A string `json:"a"` // "variant / workload" of each side
	B string `json:"b"`
	// Workload is B's workload: the one whose threshold blocks gate the pair.
	Workload string   `json:"workload"`
	CellsA   []string `json:"cells_a"` // the cells pooled on each side
	CellsB   []string `json:"cells_b"`
	// Samples says what the significance tests compared (Samples*).
	Samples string      `json:"samples"`
	Ops     []OpCompare `json:"ops"`
	Conf    *ConfDiff   `json:"conf,omitempty"`
	// Telemetry holds the hosts' run-phase figures both sides have.
	Telemetry []TelemetryDelta `json:"telemetry,omitempty"`
	Notes     []string         `json:"notes,omitempty"`
	// FailedA and FailedB say that no cell of that side finished ok (a
	// step or the error-rate gate failed): its figures are no result, and
	// its label says "(failed)".
	FailedA bool `json:"failed_a,omitempty"`
	FailedB bool `json:"failed_b,omitempty"`
	// Fill compares fill experiments bucket by bucket (FillDeltas), each
	// side's repeats averaged; absent for other workloads.
	Fill []results.FillDelta `json:"fill,omitempty"`
	// Endpoints compares what each endpoint served, for workloads with
	// several (compareEndpoints).
	Endpoints []EndpointDelta `json:"endpoints,omitempty"`
	// Fault sets fault cells' degradation and recovery side by side;
	// absent when neither side has faults.
	Fault *FaultCompare `json:"fault,omitempty"`
	// Verdict decides B against A on the total's req/s and percentiles
	// (VerdictMetrics) with 95 % intervals; absent for command workloads
	// and failed sides.
	Verdict []results.Change `json:"verdict,omitempty"`
}

// OpCompare is one operation type's figures ("GET"...; "total" when a
// cell has more than one type).
type OpCompare struct {
	Op      string   `json:"op"`
	Metrics []Metric `json:"metrics"`
}

// Metric is one figure on both sides. DeltaPct is (B/A - 1) * 100, absent
// when A is 0 or for error counts; Test is absent when no significance is
// claimed.
type Metric struct {
	Name     string   `json:"name"`
	A        float64  `json:"a"`
	B        float64  `json:"b"`
	DeltaPct *float64 `json:"delta_pct,omitempty"`
	Test     *Test    `json:"test,omitempty"`
}

// Names of the metrics of an OpCompare.
const (
	MetricReqPerS = "req/s"
	MetricErrors  = "errors"
)

// comparePair compares two groups of cells.
func comparePair(ga, gb *group, o CompareOptions) Pair {
	p := Pair{A: ga.variant + " / " + ga.workload, B: gb.variant + " / " + gb.workload, Workload: gb.workload}
	ca, notesA := pooled(ga, "A")
	cb, notesB := pooled(gb, "B")
	p.FailedA, p.FailedB = !anyOK(ca), !anyOK(cb)
	if p.FailedA {
		p.A += " (failed)"
	}
	if p.FailedB {
		p.B += " (failed)"
	}
	a, b := pool{ga.run, ca}, pool{gb.run, cb}
	p.Notes = append(notesA, notesB...)
	p.CellsA, p.CellsB = cellNames(ca), cellNames(cb)
	need := RepeatsNeeded(o.Alpha)
	p.Samples = SamplesPerSecond
	if need > 0 && len(ca) >= need && len(cb) >= need {
		p.Samples = SamplesRepeats
	}
	if hasMetrics(ca) || hasMetrics(cb) {
		if p.Samples != SamplesRepeats {
			p.Samples = SamplesNone
			p.Notes = append(p.Notes, "a command workload's figures are tested over repeats only: too few repeats for a test")
		}
		p.Ops = []OpCompare{compareMetrics(&p, ca, cb, o)}
		p.Conf = pairConfDiff(a, b)
		p.Endpoints = compareEndpoints(ca, cb)
		return p
	}
	ops := opNames(ca, cb)
	for _, op := range ops {
		p.Ops = append(p.Ops, compareOp(&p, op, len(ops) == 1, a, b, o))
	}
	addCapacity(&p, ca, cb, o)
	p.Verdict = pairVerdict(&p, a, b, o)
	switch {
	case p.Samples == SamplesPerSecond && !hasPerSecond(ca, cb):
		p.Samples = SamplesNone
		p.Notes = append(p.Notes, "no per-second throughput recorded: no significance test")
	case p.Samples == SamplesPerSecond && len(ops) > 1:
		p.Notes = append(p.Notes, "per-second throughput is recorded for all operations together: only the total's req/s is tested")
	}
	if (len(ca) > 1 || len(cb) > 1) && !slices.ContainsFunc(p.Notes, isLatencyFallback) {
		p.Notes = append(p.Notes, pooledLatencyNote)
	}
	tel, notes := compareTelemetry(ca, cb)
	p.Telemetry, p.Notes = tel, append(p.Notes, notes...)
	p.Conf = pairConfDiff(a, b)
	if d, note := compareFill(ca, cb); note != "" {
		p.Notes = append(p.Notes, note)
	} else {
		p.Fill = d
	}
	f, notes := compareFaults(ca, cb)
	p.Fault, p.Notes = f, append(p.Notes, notes...)
	p.Endpoints = compareEndpoints(ca, cb)
	return p
}

// pool is the cells pooled on one side of a pair, and their run.
type pool struct {
	run   *rundir.RunResults
	cells []*results.Cell
}

// pooled returns the group's cells that finished ok, or all of them (with
// a note) when none did.
func pooled(g *group, side string) ([]*results.Cell, []string) {
	var ok []*results.Cell
	var notes []string
	for _, c := range g.cells {
		if c.OK() {
			ok = append(ok, c)
		} else {
			notes = append(notes, fmt.Sprintf("%s: cell %s is %s: %s", side, cellName(c), orUnknown(c.Status), c.Error))
		}
	}
	if len(ok) == 0 {
		notes = append(notes, side+": no cell finished ok; its figures are what the failed cells recorded")
		return g.cells, notes
	}
	return ok, notes
}

// anyOK reports whether one of cells finished ok.
func anyOK(cells []*results.Cell) bool {
	return slices.ContainsFunc(cells, (*results.Cell).OK)
}

func orUnknown(s string) string {
	if s == "" {
		return "(no status)"
	}
	return s
}

func cellNames(cells []*results.Cell) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = cellName(c)
	}
	return out
}

// opNames lists the operation types of both sides in name order, then
// "total" when there is more than one (as CellRows does).
func opNames(a, b []*results.Cell) []string {
	set := map[string]bool{}
	for _, c := range append(slices.Clone(a), b...) {
		for op := range c.Ops {
			set[op] = true
		}
	}
	ops := slices.Sorted(maps.Keys(set))
	if len(ops) != 1 {
		ops = append(ops, "total")
	}
	return ops
}

// opOf returns a cell's summary of op ("total" for the total).
func opOf(c *results.Cell, op string) results.OpSummary {
	if op == "total" {
		return c.Total
	}
	return c.Ops[op]
}

func hasPerSecond(a, b []*results.Cell) bool {
	return len(perSecondSamples(a)) > 0 && len(perSecondSamples(b)) > 0
}

// perSecondSamples returns every cell's per-second throughput without its
// first and last seconds (ramp-up and the partial last interval).
func perSecondSamples(cells []*results.Cell) []float64 {
	var out []float64
	for _, c := range cells {
		if n := len(c.PerSecond); n > 2 {
			for _, v := range c.PerSecond[1 : n-1] {
				out = append(out, float64(v))
			}
		}
	}
	return out
}

func isLatencyFallback(n string) bool {
	return strings.HasPrefix(n, "latency of pooled repeats: median")
}

// pooledLatencyNote says where pooled repeats' percentiles come from
// when every cell's histograms were read.
const pooledLatencyNote = "latency of pooled repeats: percentiles of their merged histograms"
