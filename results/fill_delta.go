package results

import (
	"errors"
	"fmt"
	"io"
)

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

// FillDeltaLegend says what WriteFillDeltas's figures are.
const FillDeltaLegend = "last-byte latency of the PUTs in each fill bucket, in milliseconds: the base's, the " +
	"variant's and the change (+5.0 % is 5 % slower than the base); - when either has no PUT in the bucket."

// FillDeltaHeader is the header of the fill deltas' table between base and
// other (FillDeltaRows).
func FillDeltaHeader(base, other string) []string {
	hdr := []string{"objects"}
	for _, q := range []string{"p50", "p95", "p99", "mean"} {
		hdr = append(hdr, q+" "+base, q+" "+other, q+" Δ")
	}
	return hdr
}

// FillDeltaRows are the fill deltas' rows, one per bucket: the base's and
// the other's last-byte p50, p95, p99 and mean in ms with the change of
// each.
func FillDeltaRows(deltas []FillDelta) [][]string {
	rows := make([][]string, 0, len(deltas))
	for _, d := range deltas {
		row := []string{fmt.Sprintf("%d..%d", d.From, d.To)}
		for _, q := range [][3]float64{{d.Base.P50, d.Other.P50, d.P50}, {d.Base.P95, d.Other.P95, d.P95},
			{d.Base.P99, d.Other.P99, d.P99}, {d.Base.Mean, d.Other.Mean, d.Mean}} {
			row = append(row, ms(q[0], d.HasBoth), ms(q[1], d.HasBoth), signedPercent(q[2], d.HasBoth))
		}
		rows = append(rows, row)
	}
	return rows
}

// WriteFillDeltas renders FillDeltas as markdown (FillDeltaRows), followed
// by FillDeltaLegend.
func WriteFillDeltas(w io.Writer, base, other string, deltas []FillDelta) error {
	return writeMarkdown(w, FillDeltaHeader(base, other), FillDeltaRows(deltas), FillDeltaLegend)
}

// signedPercent shows a relative change as "+5.0 %", "-" when there is none.
func signedPercent(x float64, has bool) string {
	if !has {
		return "-"
	}
	return fmt.Sprintf("%+.1f %%", 100*x)
}
