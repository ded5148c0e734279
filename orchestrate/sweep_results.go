package orchestrate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"benchbed/results"
)

// SummaryName is the run's summary (DESIGN.md).
const SummaryName = results.SummaryFile

// writeSummary writes summary.json and table.md from the cells run or
// kept, in declaration order, and returns the summary.
func (s *Sweeper) writeSummary() (*results.Summary, error) {
	sort.SliceStable(s.cells, func(i, j int) bool { return s.cells[i].cell.Index < s.cells[j].cell.Index })
	sum := &results.Summary{Run: s.run.ID, Testbed: s.tb.Name, Cells: []results.Cell{}}
	for _, c := range s.cells {
		sum.Cells = append(sum.Cells, c.res)
	}
	b, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return sum, err
	}
	if err := s.run.WriteFile(SummaryName, append(b, '\n')); err != nil {
		return sum, err
	}
	var t bytes.Buffer
	if err := s.Table(&t); err != nil {
		return sum, err
	}
	return sum, s.run.WriteFile("table.md", t.Bytes())
}

// Table writes seed 000's table of the cells run or kept: one row per cell
// in declaration order with the total's first-byte latency, req/s and
// errors; a cell that did not finish says so in its label.
func (s *Sweeper) Table(w io.Writer) error {
	var rows []results.TableRow
	for _, c := range s.cells {
		label := cellLabel(s.tb, c.cell)
		if c.res.Status != "ok" {
			label += " (" + c.res.Status + ")"
		}
		rows = append(rows, results.TableRow{Label: label, Op: c.res.Total})
	}
	title := s.tb.Name
	if len(s.tb.Workloads) == 1 {
		title = s.tb.Workloads[0].Name
	}
	if err := results.WriteTable(w, title, rows); err != nil {
		return err
	}
	for _, c := range s.cells {
		if len(c.res.Total.ErrorsBy) > 0 {
			if _, err := fmt.Fprintf(w, "errors in %s: %v\n", c.cell.ID, c.res.Total.ErrorsBy); err != nil {
				return err
			}
		}
	}
	return nil
}
