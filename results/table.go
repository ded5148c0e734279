package results

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// TableRow is one line of seed 000's table: a label (a variant, or an
// operation type) and its figures.
type TableRow struct {
	Label string
	Op    OpSummary
	// Failed marks a row whose cell failed (a step, or its error-rate
	// gate): its req/s is shown as such, never as a result.
	Failed bool
}

// TableLegend says what seed 000's table counts; it is printed under it.
const TableLegend = "min, max, avg, stddev and 95th %ile: time to first byte in seconds; " +
	"these and req/s count only the operations that succeeded; errors: the operations that failed. " +
	"A row marked (failed) is no result: its req/s says so."

// markdownTable is a markdown table of right-aligned columns, headers as
// given: the house style of the tables benchbed writes.
func markdownTable(w io.Writer) *tablewriter.Table {
	return tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewMarkdown()),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignRight),
		tablewriter.WithRowAlignment(tw.AlignRight),
	)
}

// WriteTable renders seed 000's table as markdown: time-to-first-byte min,
// max, avg, stddev and 95th percentile in seconds (3 decimals), req/s (1
// decimal), and the errors, followed by TableLegend. title heads the first
// column.
func WriteTable(w io.Writer, title string, rows []TableRow) error {
	t := markdownTable(w)
	t.Header(title, "min", "max", "avg", "stddev", "95th %ile", "req/s", "errors")
	for _, r := range rows {
		fb := r.Op.FirstByte
		req := strconv.FormatFloat(r.Op.ReqPerS, 'f', 1, 64)
		if r.Failed {
			req = "failed: " + req
		}
		if err := t.Append(r.Label, sec(fb.Min), sec(fb.Max), sec(fb.Mean), sec(fb.StdDev),
			sec(fb.P95), req, strconv.FormatInt(r.Op.Errors, 10)); err != nil {
			return fmt.Errorf("table: %w", err)
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("table: %w", err)
	}
	_, err := fmt.Fprintf(w, "\n%s\n", TableLegend)
	return err
}

// CellRows lists a cell's operation types in name order, then the total
// when there is more than one type.
func CellRows(c Cell) []TableRow {
	var rows []TableRow
	for _, op := range slices.Sorted(maps.Keys(c.Ops)) {
		rows = append(rows, TableRow{Label: op, Op: c.Ops[op]})
	}
	if len(rows) != 1 {
		rows = append(rows, TableRow{Label: "total", Op: c.Total})
	}
	return rows
}

func sec(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }
