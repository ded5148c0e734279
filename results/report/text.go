package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"benchbed/results"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// Formats of WriteFormat.
const (
	FormatText     = "text"
	FormatMarkdown = "markdown"
	FormatCSV      = "csv"
	FormatJSON     = "json"
)

// WriteFormat writes the report in format (text, markdown, csv or json).
func (r *Report) WriteFormat(w io.Writer, format string) error {
	switch format {
	case FormatText:
		return r.WriteText(w, false)
	case FormatMarkdown:
		return r.WriteText(w, true)
	case FormatCSV:
		return r.WriteCSV(w)
	case FormatJSON:
		return r.WriteJSON(w)
	}
	return fmt.Errorf("format %q: want text, markdown, csv or json", format)
}

// WriteText writes the report's tables as plain text or markdown: the
// ssbench-style table, the hosts, the per-operation table, the errors by cause,
// the repeats' aggregates and the failed cells with their errors.
func (r *Report) WriteText(out io.Writer, markdown bool) error {
	var buf bytes.Buffer
	if err := r.writeText(&buf, markdown); err != nil {
		return err
	}
	text := buf.String()
	if !markdown {
		text = fitLines(text, r.textWidth())
	}
	_, err := io.WriteString(out, text)
	return err
}

// WriteVerdictText writes only the head of the text: the run's line, its
// caveats and the verdict of each variant against the baseline (what a
// script or the demo prints at the end of a sweep).
func (r *Report) WriteVerdictText(out io.Writer) error {
	var buf bytes.Buffer
	s := r.Run.Summary
	fmt.Fprintf(&buf, "testbed %s, run %s, %d cell(s)%s\n", s.Testbed, s.Run, len(s.Cells), r.dates())
	if err := r.writeVerdict(&buf, false); err != nil {
		return err
	}
	_, err := io.WriteString(out, fitLines(buf.String(), r.textWidth()))
	return err
}

// writeText writes WriteText's text, its tables within the width.
func (r *Report) writeText(w *bytes.Buffer, markdown bool) error {
	head := func(level int, s string) {
		if markdown {
			fmt.Fprintf(w, "\n%s %s\n\n", strings.Repeat("#", level), s)
		} else {
			fmt.Fprintf(w, "\n%s\n%s\n", s, strings.Repeat("=-"[level-1:level], min(len([]rune(s)), r.textWidth())))
		}
	}
	head(1, r.Title())
	s := r.Run.Summary
	fmt.Fprintf(w, "testbed %s, run %s, %d cell(s)%s\n", s.Testbed, s.Run, len(s.Cells), r.dates())
	if len(r.TestbedFiles) > 0 {
		fmt.Fprintf(w, "testbed files read: %s\n", strings.Join(r.TestbedFiles, ", "))
	}
	if err := r.writeVerdict(w, markdown); err != nil {
		return err
	}
	for _, n := range append(append([]string(nil), r.Notices...), r.Problems...) {
		fmt.Fprintf(w, "NOTICE: %s\n", n)
	}
	if cols := r.MetricColumns(); cols != nil {
		head(2, "Command workloads: a row per variant, a column per workload")
		if err := results.WriteMetricTable(w, s.Testbed, r.commandCells(), cols); err != nil {
			return err
		}
	}
	for _, t := range append(append(r.leadTables(), r.envTable(), r.metricTable(), r.opTable(), r.endpointTable(), r.errorTable()),
		append(append(r.fillTables(), r.faultTables()...), r.searchTables()...)...) {
		if len(t.Rows) == 0 {
			continue
		}
		head(2, t.Title)
		if err := writeTable(w, t, markdown, r.textWidth()); err != nil {
			return err
		}
	}
	if err := r.writeTelemetry(w, head, markdown); err != nil {
		return err
	}
	if failed := r.Failed(); len(failed) > 0 {
		head(2, "Failed cells")
		for _, c := range failed {
			fmt.Fprintf(w, "- %s (%s): %s\n", mdEscape(cellName(c), markdown), c.Status, mdEscape(oneLine(c.Error), markdown))
		}
	}
	return nil
}

// dates says when the run started and ended, as far as it is known.
func (r *Report) dates() string {
	var s string
	if !r.Started.IsZero() {
		s += ", started " + r.Started.UTC().Format(time.RFC3339)
	}
	if !r.Ended.IsZero() {
		s += ", last step " + r.Ended.UTC().Format(time.RFC3339)
	}
	return s
}

// writeTable renders t with tablewriter, then its legend: ASCII boxes
// within width columns (fitTable) or markdown.
func writeTable(w io.Writer, t table, markdown bool, width int) error {
	flat := t
	flat.Rows = make([][]string, len(t.Rows))
	for i, row := range t.Rows {
		flat.Rows[i] = make([]string, len(row))
		for j, c := range row {
			flat.Rows[i][j] = mdEscape(oneLine(c), markdown)
		}
	}
	parts := []table{flat}
	if !markdown {
		parts = fitTable(flat, width)
	}
	for _, p := range parts {
		if err := renderTable(w, p, markdown); err != nil {
			return err
		}
	}
	if t.Legend != "" && len(t.Rows) > 0 {
		_, err := fmt.Fprintf(w, "\n%s\n", t.Legend)
		return err
	}
	return nil
}

// renderTable draws t's cells as they are.
func renderTable(w io.Writer, t table, markdown bool) error {
	opts := []tablewriter.Option{tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAutoWrap(tw.WrapNone), tablewriter.WithHeaderAutoWrap(tw.WrapNone)}
	if markdown {
		opts = append(opts, tablewriter.WithRenderer(renderer.NewMarkdown()))
	}
	tb := tablewriter.NewTable(w, opts...)
	tb.Header(toAny(t.Header)...)
	for _, row := range t.Rows {
		if err := tb.Append(toAny(row)...); err != nil {
			return fmt.Errorf("table %s: %w", t.Title, err)
		}
	}
	if err := tb.Render(); err != nil {
		return fmt.Errorf("table %s: %w", t.Title, err)
	}
	return nil
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// oneLine folds a multi-line text (an error) onto one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// mdEscape keeps a cell's "|" from splitting a markdown table's column.
func mdEscape(s string, markdown bool) string {
	if !markdown {
		return s
	}
	return strings.ReplaceAll(s, "|", `\|`)
}

// writeVerdict writes the run's caveats and verdict (markdown: in a code
// block), before every table.
func (r *Report) writeVerdict(w io.Writer, markdown bool) error {
	if r.Verdict == nil {
		return nil
	}
	fence := ""
	if markdown {
		fence = "```\n"
	}
	if _, err := io.WriteString(w, "\n"+fence); err != nil {
		return err
	}
	if err := r.Verdict.Write(w, r.Width); err != nil {
		return err
	}
	_, err := io.WriteString(w, fence)
	return err
}
