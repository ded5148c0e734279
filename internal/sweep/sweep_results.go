package sweep

import (
	"bytes"
	"fmt"
	"io"
	"sort"

	"benchbed/plan"
	"benchbed/results"
	"benchbed/results/rundir"
)

// writeSummary writes summary.json and table.md from the cells run or
// kept, in declaration order, and returns the summary.
func (s *Sweeper) writeSummary() (*results.Summary, error) {
	sort.SliceStable(s.cells, func(i, j int) bool { return s.cells[i].cell.Index < s.cells[j].cell.Index })
	sum := &results.Summary{Run: s.run.ID, Testbed: s.tb.Name, Cells: []results.Cell{}, RepeatAuto: s.stops}
	for _, c := range s.cells {
		res := c.res
		if res.Params == nil {
			res.Params = c.cell.Workload.Params()
		}
		sum.Cells = append(sum.Cells, res)
	}
	if err := s.run.WriteSummary(sum); err != nil {
		return sum, err
	}
	var t bytes.Buffer
	if err := s.Table(&t); err != nil {
		return sum, err
	}
	return sum, s.run.WriteFile(rundir.TableFile, t.Bytes())
}

// Table writes the sweep's table of the cells run or kept, in declaration
// order. With sweep.repeat = 1 it is the ssbench-style table: one row per cell
// with the total's first-byte latency, req/s and errors; a cell that did
// not finish says so in its label. With repeats it is the repeats' table: one row
// per (variant, workload) averaged over its repeats (results.WriteRepeatTable,
// whose legend follows the table). Command workloads have their own table
// first (commandTable). A fill workload's buckets follow, then errors by
// cause, per cell.
func (s *Sweeper) Table(w io.Writer) error {
	title := s.tb.Name
	if len(s.tb.Workloads) == 1 {
		title = s.tb.Workloads[0].Name
	}
	if err := s.commandTable(w); err != nil {
		return err
	}
	var err error
	switch {
	case !s.hasScenarioCells():
	case repeated(s.tb):
		err = results.WriteRepeatTable(w, title, s.repeatRows())
	default:
		err = results.WriteTable(w, title, s.cellRows())
	}
	if err == nil {
		err = results.WriteRepeatStops(w, s.stops)
	}
	if err == nil {
		err = s.writeFillTables(w)
	}
	if err == nil {
		err = results.WriteSearchTables(w, s.namedCells())
	}
	if err != nil {
		return err
	}
	for _, c := range s.cells {
		if len(c.res.Total.ErrorsBy) > 0 {
			if _, err := fmt.Fprintf(w, "errors in %s: %s\n", c.cell.ID, results.TopCauses(c.res, 5)); err != nil {
				return err
			}
		}
		if c.res.Status != results.StatusOK {
			if _, err := fmt.Fprintf(w, "%s %s: %s\n", c.res.Status, c.cell.ID, c.res.Error); err != nil {
				return err
			}
		}
	}
	return nil
}

// cellRows is one row per cell.
func (s *Sweeper) cellRows() []results.TableRow {
	var rows []results.TableRow
	for _, c := range s.cells {
		if c.cell.Workload.IsCommand() {
			continue
		}
		label := cellLabel(s.tb, c.cell)
		if c.res.Status != "ok" {
			label += " (" + c.res.Status + ")"
		}
		rows = append(rows, results.TableRow{Label: label, Op: c.res.Total, Failed: c.res.Status != results.StatusOK})
	}
	return rows
}

// repeatRows is one row per (variant, workload), in the order of their
// first cell, with the totals of the repeats that finished.
func (s *Sweeper) repeatRows() []results.RepeatRow {
	cells := s.namedCells()
	var rows []results.RepeatRow
	for _, idx := range results.Groups(cells) {
		if s.cells[idx[0]].cell.Workload.IsCommand() {
			continue
		}
		row := results.RepeatRow{Label: pairLabel(s.tb, s.cells[idx[0]].cell)}
		for _, i := range idx {
			row.Add(cells[i])
		}
		rows = append(rows, row)
	}
	return rows
}

// namedCells are the results of the cells run or kept, each named by its
// cell's variant and workload (a cell that failed early may lack them).
func (s *Sweeper) namedCells() []results.Cell {
	cells := make([]results.Cell, len(s.cells))
	for i, c := range s.cells {
		cells[i] = c.res
		cells[i].Variant, cells[i].Workload = c.cell.Variant.Name, c.cell.Workload.Name
	}
	return cells
}

// pairLabel is a (variant, workload) row's label: the variant's
// description (a row's text, e.g. "normal; 29 workers") or name, with the workload when the
// matrix has several.
func pairLabel(tb *plan.Testbed, c plan.Cell) string {
	l := c.Variant.Name
	if c.Variant.Description != "" {
		l = c.Variant.Description
	}
	if len(tb.Workloads) > 1 {
		l += " / " + c.Workload.Name
	}
	return l
}
