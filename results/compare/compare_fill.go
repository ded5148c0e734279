package compare

import (
	"fmt"
	"io"

	"benchbed/results"
)

// compareFill compares the fill buckets of two sides' cells, each averaged
// over its finished repeats (AverageFill): nil and no note when neither
// side has any, nil and a note saying why when they cannot be compared.
func compareFill(a, b []*results.Cell) ([]results.FillDelta, string) {
	fa, na, errA := results.AverageFill(values(a))
	fb, nb, errB := results.AverageFill(values(b))
	switch {
	case errA != nil:
		return nil, "fill: A: " + errA.Error()
	case errB != nil:
		return nil, "fill: B: " + errB.Error()
	case na == 0 && nb == 0:
		return nil, ""
	case na == 0 || nb == 0:
		return nil, "fill: only one side has fill buckets (of a finished cell): not compared"
	}
	d, err := results.FillDeltas(fa, fb)
	if err != nil {
		return nil, fmt.Sprintf("fill: %v: not compared", err)
	}
	return d, ""
}

// values copies cells.
func values(cells []*results.Cell) []results.Cell {
	out := make([]results.Cell, len(cells))
	for i, c := range cells {
		out[i] = *c
	}
	return out
}

// writeFillCompare writes a pair's fill deltas: last-byte latency per
// bucket of the containers' fill, A's, B's and the change.
func writeFillCompare(w io.Writer, p *Pair, md bool) error {
	if len(p.Fill) == 0 {
		return nil
	}
	return writeSubTable(w, md, "PUT latency by container fill (last byte, ms; each side's repeats averaged):", "fill",
		results.FillDeltaHeader("A", "B"), results.FillDeltaRows(p.Fill))
}
