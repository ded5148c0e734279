package rundir

import (
	"os"
	"path/filepath"
	"slices"

	"benchbed/results"
)

// FillIDs gives the cells of a summary written before cells had ids the
// ids of their directories: cells/ holds one directory per cell, in the
// summary's order, whose cell.json names the same variant, workload and
// repeat. Anything else leaves the ids empty.
func (r *RunResults) FillIDs() {
	cells := r.Summary.Cells
	if r.Partial || slices.ContainsFunc(cells, func(c results.Cell) bool { return c.ID != "" }) {
		return
	}
	ents, err := os.ReadDir(filepath.Join(r.Dir, CellsDir))
	if err != nil || len(ents) != len(cells) {
		return
	}
	ids := make([]string, len(cells))
	for i, e := range ents {
		c, err := readCellFile(filepath.Join(r.Dir, CellsDir, e.Name(), CellFile))
		if err != nil || c.Variant != cells[i].Variant || c.Workload != cells[i].Workload || c.Repeat != cells[i].Repeat {
			return
		}
		ids[i] = e.Name()
	}
	for i := range cells {
		cells[i].ID = ids[i]
	}
}
