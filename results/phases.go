package results

import (
	"fmt"
	"math"
	"time"
)

// Phase names of a fault cell (docs/results.md, "Fault cells").
const (
	PhaseBefore = "before" // from the run's start to the first fault's apply
	PhaseDuring = "during" // while a fault is applied: from the first apply to the last undo
	PhaseAfter  = "after"  // from the last undo to the run's end
)

// Window is when a cell's faults were applied, counted from the measured
// run's start: from the first apply to the last undo.
type Window struct {
	Start, End time.Duration
}

// Second is one interval of a cell's run, merged over its agents: what the
// per-second plot shows.
type Second struct {
	Index   int     `json:"index"`     // interval number from the run's start
	ReqPerS float64 `json:"req_per_s"` // successful operations per second
	Errors  int64   `json:"errors"`    // failed operations
	P99     float64 `json:"p99"`       // last-byte 99th percentile, seconds (0 without operations)
	Phase   string  `json:"phase"`
}

// Phase is one phase's ssbench-style row: per operation type and in all,
// first/last byte percentiles, req/s and errors by cause.
type Phase struct {
	Name   string               `json:"name"`
	StartS float64              `json:"start_s"`
	EndS   float64              `json:"end_s"`
	Ops    map[string]OpSummary `json:"ops"`
	Total  OpSummary            `json:"total"`
}

// Degradation compares the during phase with the before phase: each a
// ratio during/before (2 = twice as high, 0.5 = half), 0 when before has
// nothing to compare with.
type Degradation struct {
	ReqPerS        float64 `json:"req_per_s"`
	FirstByteP50   float64 `json:"first_byte_p50"`
	FirstByteP95   float64 `json:"first_byte_p95"`
	FirstByteP99   float64 `json:"first_byte_p99"`
	LastByteP50    float64 `json:"last_byte_p50"`
	LastByteP95    float64 `json:"last_byte_p95"`
	LastByteP99    float64 `json:"last_byte_p99"`
	ErrorRateDelta float64 `json:"error_rate_delta"` // during's error rate minus before's
}

// Recovery is how long after the last undo the cell was back: the first
// window of WindowS seconds, starting at or after the undo, whose req/s is
// within Band of before's, whose last-byte p99 is at most (1+Band) times
// before's and whose error rate is at most the gate.
type Recovery struct {
	Recovered bool    `json:"recovered"`
	AfterS    float64 `json:"after_s"` // seconds from the undo to the window's start (when Recovered)
	Band      float64 `json:"band"`
	WindowS   int     `json:"window_s"`
	Gate      float64 `json:"gate"`
}

// FaultPhases is a fault cell's phases, degradation and recovery.
type FaultPhases struct {
	Window      Window      `json:"-"`
	StartS      float64     `json:"start_s"` // the window, seconds into the run
	EndS        float64     `json:"end_s"`
	Phases      []Phase     `json:"phases"` // before, during, after (a phase of no time is left out)
	Degradation Degradation `json:"degradation"`
	Recovery    Recovery    `json:"recovery"`
	Seconds     []Second    `json:"seconds"`
}

// Phase returns the phase named name, or nil.
func (fp *FaultPhases) Phase(name string) *Phase {
	for i := range fp.Phases {
		if fp.Phases[i].Name == name {
			return &fp.Phases[i]
		}
	}
	return nil
}

// RecoveryText says when the cell recovered: "4 s after the undo", or
// "not recovered in the run".
func (r Recovery) Text() string {
	if !r.Recovered {
		return "not recovered in the run"
	}
	return fmt.Sprintf("%g s after the undo", r.AfterS)
}

// ratio is a/b, 0 when b is 0.
func ratio(a, b float64) float64 {
	if b == 0 || math.IsNaN(a) || math.IsNaN(b) {
		return 0
	}
	return a / b
}

// degradation compares during with before.
func degradation(before, during OpSummary) Degradation {
	return Degradation{
		ReqPerS:        ratio(during.ReqPerS, before.ReqPerS),
		FirstByteP50:   ratio(during.FirstByte.P50, before.FirstByte.P50),
		FirstByteP95:   ratio(during.FirstByte.P95, before.FirstByte.P95),
		FirstByteP99:   ratio(during.FirstByte.P99, before.FirstByte.P99),
		LastByteP50:    ratio(during.LastByte.P50, before.LastByte.P50),
		LastByteP95:    ratio(during.LastByte.P95, before.LastByte.P95),
		LastByteP99:    ratio(during.LastByte.P99, before.LastByte.P99),
		ErrorRateDelta: during.ErrorRate() - before.ErrorRate(),
	}
}
