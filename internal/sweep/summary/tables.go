package summary

import (
	"fmt"
	"io"
	"slices"

	"benchbed/plan"
	"benchbed/results"
)

// Cell is one cell of the sweep, run or kept: its place in the matrix and
// its result.
type Cell struct {
	Cell plan.Cell
	Res  results.Cell
}

// table is what the sweep's tables are written from: the testbed and its
// cells in declaration order.
type table struct {
	tb    *plan.Testbed
	cells []Cell
}

// Write writes the sweep's table of the cells run or kept, in declaration
// order. With sweep.repeat = 1 it is the ssbench-style table: one row per cell
// with the total's first-byte latency, req/s and errors; a cell that did
// not finish says so in its label. With repeats it is the repeats' table: one row
// per (variant, workload) averaged over its repeats (results.WriteRepeatTable,
// whose legend follows the table). Command workloads have their own table
// first (commandTable). A fill workload's buckets follow, then errors by
// cause, per cell.
func Write(w io.Writer, tb *plan.Testbed, cells []Cell) error {
	return (&table{tb: tb, cells: cells}).write(w)
}

func (s *table) write(w io.Writer) error {
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
		err = results.WriteRepeatStops(w, RepeatStops(s.tb, s.cells))
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
		if len(c.Res.Total.ErrorsBy) > 0 {
			if _, err := fmt.Fprintf(w, "errors in %s: %s\n", c.Cell.ID, results.TopCauses(c.Res, 5)); err != nil {
				return err
			}
		}
		if !c.Res.OK() {
			if _, err := fmt.Fprintf(w, "%s %s: %s\n", c.Res.Status, c.Cell.ID, c.Res.Error); err != nil {
				return err
			}
		}
	}
	return nil
}

// cellRows is one row per cell.
func (s *table) cellRows() []results.TableRow {
	var rows []results.TableRow
	for _, c := range s.cells {
		if c.Cell.Workload.IsCommand() {
			continue
		}
		label := CellLabel(s.tb, c.Cell)
		if !c.Res.OK() {
			label += " (" + c.Res.Status + ")"
		}
		rows = append(rows, results.TableRow{Label: label, Op: c.Res.Total, Failed: !c.Res.OK()})
	}
	return rows
}

// repeatRows is one row per (variant, workload), in the order of their
// first cell, with the totals of the repeats that finished.
func (s *table) repeatRows() []results.RepeatRow {
	cells := s.namedCells()
	var rows []results.RepeatRow
	for _, idx := range results.Groups(cells) {
		if s.cells[idx[0]].Cell.Workload.IsCommand() {
			continue
		}
		row := results.RepeatRow{Label: pairLabel(s.tb, s.cells[idx[0]].Cell)}
		for _, i := range idx {
			row.Add(cells[i])
		}
		rows = append(rows, row)
	}
	return rows
}

// namedCells are the results of the cells run or kept, each named by its
// cell's variant and workload (a cell that failed early may lack them).
func (s *table) namedCells() []results.Cell {
	cells := make([]results.Cell, len(s.cells))
	for i, c := range s.cells {
		cells[i] = c.Res
		cells[i].Variant, cells[i].Workload = c.Cell.Variant.Name, c.Cell.Workload.Name
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

// CellLabel is a cell's row label in the table: the variant's description
// (a row's text, e.g. "normal; 29 workers") or name, with the workload and repeat when the
// matrix has several.
func CellLabel(tb *plan.Testbed, c plan.Cell) string {
	l := pairLabel(tb, c)
	if repeated(tb) {
		l += fmt.Sprintf(" #%d", c.Repeat)
	}
	return l
}

// hasScenarioCells reports whether some cell is of a scenario workload.
func (s *table) hasScenarioCells() bool {
	for _, c := range s.cells {
		if !c.Cell.Workload.IsCommand() {
			return true
		}
	}
	return false
}

// commandTable writes the command workloads' table when there are some: a
// row per variant (its description, or name), a column per command
// workload with its metric (results.WriteMetricTable).
func (s *table) commandTable(w io.Writer) error {
	var cells []results.Cell
	var cols []results.MetricColumn
	for _, c := range s.cells {
		wl := c.Cell.Workload
		if !wl.IsCommand() {
			continue
		}
		res := c.Res
		res.Variant, res.Workload = c.Cell.Variant.Name, wl.Name
		if c.Cell.Variant.Description != "" {
			res.Variant = c.Cell.Variant.Description
		}
		cells = append(cells, res)
		if !slices.ContainsFunc(cols, func(m results.MetricColumn) bool { return m.Workload == wl.Name }) {
			cols = append(cols, results.MetricColumn{Workload: wl.Name, Metric: wl.Command.Metric})
		}
		for i := range cols {
			if m, ok := res.Metrics[cols[i].Metric]; ok && cols[i].Workload == wl.Name && cols[i].Unit == "" {
				cols[i].Unit = m.Unit
			}
		}
	}
	if len(cells) == 0 {
		return nil
	}
	if err := results.WriteMetricTable(w, s.tb.Name, cells, cols); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w)
	return err
}
