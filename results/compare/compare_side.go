package compare

import (
	"errors"
	"fmt"
	"strings"

	"benchbed/results"
	"benchbed/results/rundir"
)

// Side is one side of a comparison: a whole run, one cell of a run, or
// the repeats of one of its variants.
type Side struct {
	Ref string             // as given: "DIR" or "DIR:CELL"
	Run *rundir.RunResults // the run read back
	// Cells are the cells compared: one, or a variant's repeats; nil for
	// the whole run.
	Cells []*results.Cell
}

// OpenSide reads ref: a run (anything rundir.Resolve takes under root:
// a directory, a run id, "latest"), or "RUN:CELL" with CELL anything
// FindCell takes (an id, a number, a variant that only one cell has), or
// a variant whose cells are the repeats of one workload (pooled).
// A ref that is a run is a run even if it has a ':'; otherwise it splits
// at the last ':' whose left part is a run, so both paths and cell names
// may hold a ':'.
func OpenSide(root, ref string) (*Side, error) {
	if ref == "" {
		return nil, errors.New("empty run reference")
	}
	dir, cell, err := splitRef(root, ref)
	if err != nil {
		return nil, err
	}
	r, err := rundir.ReadRun(dir)
	if err != nil {
		return nil, err
	}
	r.FillIDs()
	s := &Side{Ref: ref, Run: r}
	if cell == "" {
		return s, nil
	}
	c, err := r.FindCell(cell)
	switch {
	case err == nil:
		s.Cells = []*results.Cell{c}
	case len(repeatsOf(r, cell)) > 1:
		s.Cells = repeatsOf(r, cell)
	default:
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return s, nil
}

// repeatsOf returns the cells of variant when they all run one workload.
func repeatsOf(r *rundir.RunResults, variant string) []*results.Cell {
	var out []*results.Cell
	for i := range r.Summary.Cells {
		c := &r.Summary.Cells[i]
		if c.Variant != variant {
			continue
		}
		if len(out) > 0 && c.Workload != out[0].Workload {
			return nil
		}
		out = append(out, c)
	}
	return out
}

// splitRef returns the run directory and the cell reference ("" for none).
func splitRef(root, ref string) (dir, cell string, err error) {
	run, err := rundir.Resolve(root, "", ref)
	if err == nil {
		return run.Dir, "", nil
	}
	for i := strings.LastIndexByte(ref, ':'); i >= 0; i = strings.LastIndexByte(ref[:i], ':') {
		if r, rerr := rundir.Resolve(root, "", ref[:i]); rerr == nil {
			if ref[i+1:] == "" {
				return "", "", fmt.Errorf("%s: no cell after ':'", ref)
			}
			return r.Dir, ref[i+1:], nil
		}
	}
	return "", "", err // neither: the whole ref's error names it
}

// Label names the side in output: the run's directory and, for a cell,
// its id, for a variant's repeats the variant.
func (s *Side) Label() string {
	switch len(s.Cells) {
	case 0:
		return s.Run.Dir
	case 1:
		return s.Run.Dir + ":" + cellName(s.Cells[0])
	}
	return fmt.Sprintf("%s:%s (%d repeats)", s.Run.Dir, s.Cells[0].Variant, len(s.Cells))
}

func cellName(c *results.Cell) string {
	if c.ID != "" {
		return c.ID
	}
	return c.Variant + "/" + c.Workload + fmt.Sprintf("/r%d", c.Repeat)
}
