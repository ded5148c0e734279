package results

import (
	"maps"
	"slices"
	"time"

	"benchbed/results/telemetry"
)

// Stats describes a latency distribution, in seconds.
type Stats struct {
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	Mean   float64 `json:"mean"`
	StdDev float64 `json:"stddev"`
	P50    float64 `json:"p50"`
	P95    float64 `json:"p95"`
	P99    float64 `json:"p99"`
	P999   float64 `json:"p999"`
}

// OpSummary is one operation type's line of a cell (docs/results.md). Count is
// the successful operations (those in the histograms), Errors the failed
// ones, ErrorsBy the failures by cause ("http_503", "transport_timeout"...).
type OpSummary struct {
	Count     int64            `json:"count"`
	Errors    int64            `json:"errors"`
	ReqPerS   float64          `json:"req_per_s"`
	FirstByte Stats            `json:"first_byte"`
	LastByte  Stats            `json:"last_byte"`
	ErrorsBy  map[string]int64 `json:"errors_by,omitempty"`
	Retries   int64            `json:"retries,omitempty"`
}

// Cell is one matrix cell's result: summary.json's element and the output
// of `benchbed load --json` (docs/results.md, contract).
type Cell struct {
	// ID is the matrix cell's id (plan), its directory's name under cells/.
	ID        string               `json:"id,omitempty"`
	Variant   string               `json:"variant,omitempty"`
	Workload  string               `json:"workload"`
	Repeat    int                  `json:"repeat,omitempty"`
	Status    string               `json:"status"`
	DurationS float64              `json:"duration_s"`
	Ops       map[string]OpSummary `json:"ops"`
	Total     OpSummary            `json:"total"`
	// PerSecond is the successful operations completed in each second of
	// the run, for throughput over time.
	PerSecond []int64 `json:"per_second,omitempty"`
	// Search is a capacity search's answer and probes, when the cell was
	// one (a workload's search block); nil for a run at one load.
	Search *SearchResult `json:"search,omitempty"`
	// Stopped says why a run of duration "auto" ended: "precision 1.8%
	// reached" or "max 1h reached" (omitted for a run of fixed length).
	Stopped string `json:"stopped,omitempty"`
	// WarmedUp says why a warmup = "auto" ended: "steady after 14s" or
	// "not steady after 2m: ..." (omitted for other warm-ups).
	WarmedUp string `json:"warmed_up,omitempty"`
	// Error says why a cell that is not "ok" failed: the step and its
	// error, secrets masked.
	Error string `json:"error,omitempty"`
	// Params is the workload's axis point (plan.Workload.Params): its
	// block label with each.value, and the scenario fields it overrides.
	Params map[string]string `json:"params,omitempty"`
	// Fill is a fill experiment's PUT latency by the containers' fill
	// (FillSpec), every bucket in order; nil for other workloads.
	Fill []FillBucket `json:"fill,omitempty"`
	// Metrics are a command workload's figures by name (outparse): a
	// cell of a command workload has these instead of Ops.
	Metrics map[string]Figure `json:"metrics,omitempty"`
	// Fault is a fault cell's phases (before, during, after), degradation
	// and recovery, with its per-second series; nil for other cells.
	Fault *FaultPhases `json:"fault,omitempty"`
	// Telemetry is the hosts' telemetry over the measured run (omitted
	// when telemetry was off).
	Telemetry *telemetry.CellSummary `json:"telemetry,omitempty"`
	// Endpoints is what each endpoint of a workload with several served
	// (SummariseEndpoints), in the workload's order; nil for one endpoint.
	Endpoints []EndpointSummary `json:"endpoints,omitempty"`
}

// Summary is a run's summary.json (docs/results.md, contract).
type Summary struct {
	Run     string `json:"run"`
	Testbed string `json:"testbed"`
	Cells   []Cell `json:"cells"`
	// RepeatAuto says, per repeat = "auto" workload and variant, why its
	// repeats ended (omitted without repeat = "auto").
	RepeatAuto []RepeatStop `json:"repeat_auto,omitempty"`
}

// OpHists is what a recorder keeps for one operation type: latency
// histograms of the successful operations and counters of the failed ones.
// It merges and serialises (agents stream it as JSON).
type OpHists struct {
	Errors    map[string]int64 `json:"errors,omitempty"`
	Retries   int64            `json:"retries,omitempty"`
	FirstByte *Hist            `json:"first_byte"`
	LastByte  *Hist            `json:"last_byte"`
}

// NewOpHists returns empty histograms and counters.
func NewOpHists() *OpHists {
	return &OpHists{Errors: map[string]int64{}, FirstByte: NewHist(), LastByte: NewHist()}
}

// Merge adds o into h.
func (h *OpHists) Merge(o *OpHists) {
	if o == nil {
		return
	}
	if h.Errors == nil {
		h.Errors = map[string]int64{}
	}
	for k, v := range o.Errors {
		h.Errors[k] += v
	}
	h.Retries += o.Retries
	h.FirstByte.Merge(o.FirstByte)
	h.LastByte.Merge(o.LastByte)
}

// ErrorCount returns the number of failed operations.
func (h *OpHists) ErrorCount() int64 {
	var n int64
	for _, v := range h.Errors {
		n += v
	}
	return n
}

// Recording holds OpHists by operation type ("GET", "PUT"...).
type Recording map[string]*OpHists

// Merge adds every operation type of o into r.
func (r Recording) Merge(o Recording) {
	for op, h := range o {
		if r[op] == nil {
			r[op] = NewOpHists()
		}
		r[op].Merge(h)
	}
}

// Summarise turns a recording of a run that lasted d into a cell's
// statistics (the caller fills Variant, Workload, Repeat and Status).
func Summarise(r Recording, d time.Duration) Cell {
	c := Cell{DurationS: d.Seconds(), Ops: map[string]OpSummary{}}
	total := NewOpHists()
	for _, op := range slices.Sorted(maps.Keys(r)) {
		c.Ops[op] = opSummary(r[op], d)
		total.Merge(r[op])
	}
	c.Total = opSummary(total, d)
	return c
}

func opSummary(h *OpHists, d time.Duration) OpSummary {
	s := OpSummary{
		Count:     h.LastByte.Count(),
		Errors:    h.ErrorCount(),
		FirstByte: h.FirstByte.Stats(),
		LastByte:  h.LastByte.Stats(),
		Retries:   h.Retries,
	}
	if d > 0 {
		s.ReqPerS = float64(s.Count) / d.Seconds()
	}
	if len(h.Errors) > 0 {
		s.ErrorsBy = maps.Clone(h.Errors)
	}
	return s
}
