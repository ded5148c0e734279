package compare

import (
	"fmt"
	"io"
	"strconv"

	"benchbed/results"
)

// FaultCompare sets two fault cells side by side: each side's degradation
// (during / before) and time to recover, from its first cell with phases.
type FaultCompare struct {
	A *FaultSide `json:"a,omitempty"`
	B *FaultSide `json:"b,omitempty"`
}

// FaultSide is one side's fault figures.
type FaultSide struct {
	Cell        string              `json:"cell"`
	StartS      float64             `json:"start_s"`
	EndS        float64             `json:"end_s"`
	Degradation results.Degradation `json:"degradation"`
	Recovery    results.Recovery    `json:"recovery"`
}

// compareFaults returns the sides' fault figures, nil when neither side
// has a fault cell, with a note when repeats are not pooled.
func compareFaults(a, b []*results.Cell) (*FaultCompare, []string) {
	fa, na := faultSide(a)
	fb, nb := faultSide(b)
	if fa == nil && fb == nil {
		return nil, nil
	}
	var notes []string
	if na > 1 || nb > 1 {
		notes = append(notes, "fault figures are each side's first repeat's (degradation and recovery are not pooled)")
	}
	if fa == nil || fb == nil {
		notes = append(notes, "only one side is a fault cell: its degradation has nothing to compare with")
	}
	return &FaultCompare{A: fa, B: fb}, notes
}

// faultSide is the first cell with phases of cells, and how many have them.
func faultSide(cells []*results.Cell) (*FaultSide, int) {
	var first *FaultSide
	n := 0
	for _, c := range cells {
		if c.Fault == nil {
			continue
		}
		n++
		if first == nil {
			first = &FaultSide{Cell: cellName(c), StartS: c.Fault.StartS, EndS: c.Fault.EndS,
				Degradation: c.Fault.Degradation, Recovery: c.Fault.Recovery}
		}
	}
	return first, n
}

// faultRows are the fault table's rows: a figure, A's and B's.
func faultRows(f *FaultCompare) [][]string {
	get := func(s *FaultSide, of func(*FaultSide) string) string {
		if s == nil {
			return "-"
		}
		return of(s)
	}
	x := func(r float64) string {
		if r == 0 {
			return "-"
		}
		return "x" + strconv.FormatFloat(r, 'f', 2, 64)
	}
	rows := []struct {
		name string
		of   func(*FaultSide) string
	}{
		{"fault window (s of the run)", func(s *FaultSide) string { return fmt.Sprintf("%g-%g", s.StartS, s.EndS) }},
		{"req/s during / before", func(s *FaultSide) string { return x(s.Degradation.ReqPerS) }},
		{"first-byte p99 during / before", func(s *FaultSide) string { return x(s.Degradation.FirstByteP99) }},
		{"last-byte p50 during / before", func(s *FaultSide) string { return x(s.Degradation.LastByteP50) }},
		{"last-byte p99 during / before", func(s *FaultSide) string { return x(s.Degradation.LastByteP99) }},
		{"error rate during - before", func(s *FaultSide) string { return results.Percent(s.Degradation.ErrorRateDelta) }},
		{"time to recover", func(s *FaultSide) string { return s.Recovery.Text() }},
	}
	var out [][]string
	for _, r := range rows {
		out = append(out, []string{r.name, get(f.A, r.of), get(f.B, r.of)})
	}
	return out
}

// writeFaultCompare writes the pair's fault table, if it has one.
func writeFaultCompare(w io.Writer, p *Pair, md bool) error {
	if p.Fault == nil {
		return nil
	}
	return writeSubTable(w, md, "Under the fault (degradation during vs before, recovery after the undo):", "fault",
		[]string{"", "A", "B"}, faultRows(p.Fault))
}
