package sweep

import (
	"io"
	"sort"

	"benchbed/internal/sweep/summary"
	"benchbed/results"
)

// writeSummary writes summary.json and table.md from the cells run or
// kept, in declaration order, and returns the summary.
func (s *Sweeper) writeSummary() (*results.Summary, error) {
	sort.SliceStable(s.cells, func(i, j int) bool { return s.cells[i].cell.Index < s.cells[j].cell.Index })
	return summary.Save(s.run, s.tb, s.summaryCells())
}

// Table writes the sweep's tables of the cells run or kept, in declaration
// order (summary.Write).
func (s *Sweeper) Table(w io.Writer) error { return summary.Write(w, s.tb, s.summaryCells()) }

// summaryCells are the cells run or kept, as the summary reads them.
func (s *Sweeper) summaryCells() []summary.Cell {
	cells := make([]summary.Cell, len(s.cells))
	for i, c := range s.cells {
		cells[i] = summary.Cell{Cell: c.cell, Res: c.res}
	}
	return cells
}
