package compare

import (
	"fmt"
	"io"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// writeSubTable writes one of a pair's tables after its main one: a blank
// line and title, then header and rows as a text table (markdown with md,
// after one more blank line). what names the table in errors.
func writeSubTable(w io.Writer, md bool, title, what string, header []string, rows [][]string) error {
	if _, err := io.WriteString(w, "\n"+title+"\n"); err != nil {
		return err
	}
	var r tw.Renderer = renderer.NewBlueprint()
	if md {
		r = renderer.NewMarkdown()
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
	}
	t := tablewriter.NewTable(w, tablewriter.WithRenderer(r), tablewriter.WithHeaderAutoFormat(tw.Off))
	t.Header(header)
	for _, row := range rows {
		if err := t.Append(row); err != nil {
			return fmt.Errorf("compare %s table: %w", what, err)
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("compare %s table: %w", what, err)
	}
	return nil
}
