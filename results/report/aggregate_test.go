package report

import (
	"testing"

	"benchbed/results"
)

func TestRepeatsGroupOnlyRepeatedCells(t *testing.T) {
	ok := func(v string, r int, rps float64) results.Cell {
		return results.Cell{Variant: v, Workload: "w", Repeat: r, Status: "ok", Total: results.OpSummary{ReqPerS: rps}}
	}
	cells := []results.Cell{ok("b", 1, 10), ok("a", 1, 100), ok("b", 2, 20), ok("c", 1, 5),
		{Variant: "b", Workload: "w", Repeat: 3, Status: "failed", Total: results.OpSummary{Errors: 7}}}
	g := Repeats(cells)
	if len(g) != 1 || g[0].Variant != "b" || g[0].OK != 2 || len(g[0].Cells) != 3 || g[0].Errors != 7 ||
		g[0].ReqPerS.Mean != 15 || g[0].ReqPerS.Min != 10 || g[0].ReqPerS.Max != 20 {
		t.Fatalf("repeats = %+v", g)
	}
	bars := Bars(cells)
	if len(bars) != 3 || bars[0].Label != "b" || bars[0].Mean != 15 || bars[0].N != 2 || bars[1].Label != "a" || bars[1].StdDev != 0 {
		t.Errorf("bars = %+v", bars)
	}
}
