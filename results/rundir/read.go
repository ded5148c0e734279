package rundir

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"benchbed/results"
)

// RunResults is a run directory read back: its summary, from summary.json
// or, for a run that never wrote one (killed, still running), rebuilt from
// the cells' own results.
type RunResults struct {
	Dir     string
	Summary results.Summary
	// Partial is true when there was no summary.json: Summary holds the
	// cells that finished, in the order of their ids.
	Partial bool
}

// ReadRun reads the run in dir.
func ReadRun(dir string) (*RunResults, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("run %s: not a directory", dir)
	}
	r := &RunResults{Dir: dir}
	b, err := os.ReadFile(filepath.Join(dir, SummaryFile))
	switch {
	case err == nil:
		if err := json.Unmarshal(b, &r.Summary); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, SummaryFile), err)
		}
	case errors.Is(err, fs.ErrNotExist):
		r.Partial = true
		r.Summary.Run = filepath.Base(dir)
		if r.Summary.Cells, err = readCells(dir); err != nil {
			return nil, err
		}
	default:
		return nil, err
	}
	if r.Summary.Run == "" {
		r.Summary.Run = filepath.Base(dir)
	}
	if len(r.Summary.Cells) == 0 {
		return nil, fmt.Errorf("run %s: no cell has a result (neither %s nor %s/*/%s)", dir, SummaryFile, CellsDir, CellFile)
	}
	return r, nil
}

// readCells reads cells/*/cell.json in the order of the cells' ids.
func readCells(dir string) ([]results.Cell, error) {
	ents, err := os.ReadDir(filepath.Join(dir, CellsDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var cells []results.Cell
	for _, e := range ents {
		c, err := readCellFile(filepath.Join(dir, CellsDir, e.Name(), CellFile))
		if errors.Is(err, fs.ErrNotExist) {
			continue // the cell never finished
		}
		if err != nil {
			return nil, err
		}
		if c.ID == "" {
			c.ID = e.Name()
		}
		cells = append(cells, c)
	}
	sort.SliceStable(cells, func(i, j int) bool { return cells[i].ID < cells[j].ID })
	return cells, nil
}

// CellDir returns the directory of cell c (its confs, agents' streams,
// logs), or "" when the cell has no id (a summary older than ids).
func (r *RunResults) CellDir(c *results.Cell) string {
	if c.ID == "" {
		return ""
	}
	return filepath.Join(r.Dir, CellsDir, SafeName(c.ID))
}

// FindCell returns the cell that ref names: its id, the number that
// starts its id ("2" or "002"), or a variant name that only one cell has.
func (r *RunResults) FindCell(ref string) (*results.Cell, error) {
	cells := r.Summary.Cells
	for i := range cells {
		if cells[i].ID != "" && cells[i].ID == ref {
			return &cells[i], nil
		}
	}
	var found []int
	for i := range cells {
		if num, _, ok := strings.Cut(cells[i].ID, "-"); ok && trimZeros(num) == trimZeros(ref) && ref != "" {
			found = append(found, i)
		}
	}
	if len(found) == 0 {
		for i := range cells {
			if cells[i].Variant == ref {
				found = append(found, i)
			}
		}
	}
	switch len(found) {
	case 1:
		return &cells[found[0]], nil
	case 0:
		return nil, fmt.Errorf("run %s has no cell %q (cells: %s)", r.Summary.Run, ref, r.cellIDs())
	}
	return nil, fmt.Errorf("run %s: %q names %d cells; give a cell id (cells: %s)", r.Summary.Run, ref, len(found), r.cellIDs())
}

func (r *RunResults) cellIDs() string {
	ids := make([]string, 0, len(r.Summary.Cells))
	for _, c := range r.Summary.Cells {
		id := c.ID
		if id == "" {
			id = "(no id: " + c.Variant + "/" + c.Workload + ")"
		}
		ids = append(ids, id)
	}
	return strings.Join(ids, ", ")
}

// trimZeros drops a number's leading zeros ("007" and "7" name one cell).
func trimZeros(s string) string {
	t := strings.TrimLeft(s, "0")
	if t == "" && s != "" {
		return "0"
	}
	return t
}
