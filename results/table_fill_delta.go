package results

import (
	"fmt"
)

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

// signedPercent shows a relative change as "+5.0 %", "-" when there is none.
func signedPercent(x float64, has bool) string {
	if !has {
		return "-"
	}
	return fmt.Sprintf("%+.1f %%", 100*x)
}
