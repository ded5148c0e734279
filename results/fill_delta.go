package results

import "errors"

// FillDelta compares one fill bucket of two variants' cells: last-byte
// p50, p95, p99 and mean of each (seconds) and the change from the base
// (relative: 0.05 is 5 % slower; NaN-free, 0 when either has no PUT).
type FillDelta struct {
	From    int64 `json:"from_objects"`
	To      int64 `json:"to_objects"`
	Base    Stats `json:"base"`  // last byte
	Other   Stats `json:"other"` // last byte
	HasBoth bool  `json:"both"`  // both buckets have PUTs
	// Relative changes of the last byte's p50, p95, p99 and mean.
	P50  float64 `json:"p50_change"`
	P95  float64 `json:"p95_change"`
	P99  float64 `json:"p99_change"`
	Mean float64 `json:"mean_change"`
}

// errFillMismatch refuses to compare cells whose buckets differ.
var errFillMismatch = errors.New("fill buckets differ (another container_objects or buckets)")

// FillDeltas compares other's fill buckets with base's, bucket by bucket.
func FillDeltas(base, other []FillBucket) ([]FillDelta, error) {
	if len(base) != len(other) {
		return nil, errFillMismatch
	}
	out := make([]FillDelta, len(base))
	for i, b := range base {
		o := other[i]
		if b.From != o.From || b.To != o.To {
			return nil, errFillMismatch
		}
		d := FillDelta{From: b.From, To: b.To, Base: b.LastByte, Other: o.LastByte, HasBoth: b.Count > 0 && o.Count > 0}
		if d.HasBoth {
			d.P50, d.P95 = change(b.LastByte.P50, o.LastByte.P50), change(b.LastByte.P95, o.LastByte.P95)
			d.P99, d.Mean = change(b.LastByte.P99, o.LastByte.P99), change(b.LastByte.Mean, o.LastByte.Mean)
		}
		out[i] = d
	}
	return out, nil
}

// change is other's relative change from base (0 when base is 0).
func change(base, other float64) float64 {
	if base == 0 {
		return 0
	}
	return (other - base) / base
}
