package results

import (
	"errors"
	"fmt"
)

// Latency metrics a verdict samples per repeat or per batch, by the
// names --fail-if gives them.
const (
	MetricFirstP50 = "first_byte_p50"
	MetricFirstP99 = "first_byte_p99"
	MetricLastP50  = "last_byte_p50"
	MetricLastP99  = "last_byte_p99"
)

// LatencyMetrics are the latency metrics a verdict samples, in order.
var LatencyMetrics = []string{MetricFirstP50, MetricFirstP99, MetricLastP50, MetricLastP99}

// Batches is how one run's per-second series is cut for a verdict:
// Count batches of Size intervals from interval index First.
type Batches struct {
	First, Size, Count int
}

// VerdictMinBatches is the fewest batches a verdict's interval comes from:
// fewer than a duration's precision needs (MinBatches), since Welch's t
// widens the interval for few batches and a short run with a large change
// (a 96 % drop over 9 seconds) must still be decided.
const VerdictMinBatches = 5

// PlanBatches cuts a cell's per-second series, without its first and last
// seconds (ramp-up, and the partial last interval), into the batches
// batchMeansOf chooses (near-independent means, at least
// VerdictMinBatches of them; the oldest seconds that fill no batch are
// left out), and returns
// them with each batch's req/s. It fails, saying so, when the run is too
// short or too correlated for that, or has no series.
func PlanBatches(perSecond []int64) (Batches, []float64, error) {
	if len(perSecond) == 0 {
		return Batches{}, nil, errors.New("no per-second series recorded")
	}
	if len(perSecond) < 3 {
		return Batches{}, nil, fmt.Errorf("one run of %d s: too short for %d batches", len(perSecond), VerdictMinBatches)
	}
	xs := make([]float64, len(perSecond)-2)
	for i, v := range perSecond[1 : len(perSecond)-1] {
		xs[i] = float64(v)
	}
	iv, err := batchMeansOf(xs, VerdictMinBatches)
	if err != nil {
		return Batches{}, nil, fmt.Errorf("one run of %d s: too short for %d near-independent batches of its seconds", len(perSecond), VerdictMinBatches)
	}
	skip := len(xs) - iv.Batch*iv.Batches
	return Batches{First: 1 + skip, Size: iv.Batch, Count: iv.Batches}, batchMeans(xs[skip:], iv.Batch), nil
}

// BatchLatency collects, interval by interval in order, each batch's
// first- and last-byte percentiles of every operation type together.
// Memory holds one batch's histograms and four floats a batch.
type BatchLatency struct {
	b           Batches
	cur         int
	first, last *Hist
	out         map[string][]float64
}

// NewBatchLatency returns a collector of b's batches.
func NewBatchLatency(b Batches) *BatchLatency {
	return &BatchLatency{b: b, first: NewHist(), last: NewHist(), out: map[string][]float64{}}
}

// Add takes interval index's recording, merged over the agents. Indexes
// come in order; those outside the batches are ignored.
func (bl *BatchLatency) Add(index int, r Recording) error {
	if bl.b.Size <= 0 || index < bl.b.First {
		return nil
	}
	j := (index - bl.b.First) / bl.b.Size
	if j >= bl.b.Count {
		return nil
	}
	if j != bl.cur {
		bl.flush()
		bl.cur = j
	}
	for _, h := range r {
		if h != nil && h.FirstByte != nil && h.LastByte != nil {
			bl.first.Merge(h.FirstByte)
			bl.last.Merge(h.LastByte)
		}
	}
	return nil
}

// flush records the current batch's percentiles (none for an empty
// batch) and empties the histograms.
func (bl *BatchLatency) flush() {
	if bl.first.Count() > 0 {
		for _, m := range LatencyMetrics {
			h, q := bl.first, 0.5
			if m == MetricLastP50 || m == MetricLastP99 {
				h = bl.last
			}
			if m == MetricFirstP99 || m == MetricLastP99 {
				q = 0.99
			}
			bl.out[m] = append(bl.out[m], h.Quantile(q).Seconds())
		}
	}
	bl.first.Reset()
	bl.last.Reset()
}

// Close returns each latency metric's value per batch, in seconds.
func (bl *BatchLatency) Close() map[string][]float64 {
	bl.flush()
	return bl.out
}

// Pick returns a latency metric of s (MetricFirstP99...), 0 for another.
func (s OpSummary) Pick(metric string) float64 {
	switch metric {
	case MetricFirstP50:
		return s.FirstByte.P50
	case MetricFirstP99:
		return s.FirstByte.P99
	case MetricLastP50:
		return s.LastByte.P50
	case MetricLastP99:
		return s.LastByte.P99
	case "req/s":
		return s.ReqPerS
	}
	return 0
}
