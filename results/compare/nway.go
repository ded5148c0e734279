package compare

import (
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// WriteNWay renders comparisons of one baseline against several runs or
// cells (each Compare(base, other)) as one table: per pair of the
// baseline, operation and metric, the baseline's figure, then each
// other's with its change ("~" where the U test finds none).
func WriteNWay(w io.Writer, cs []*Comparison, format string) error {
	md := format == "markdown"
	if !md && format != "text" {
		return fmt.Errorf("compare: unknown format %q (text, markdown, or --json)", format)
	}
	if len(cs) == 0 {
		return nil
	}
	var b strings.Builder
	if err := writeVerdictFirst(&b, cs[0].A, cs, md); err != nil {
		return err
	}
	writeItem(&b, md, "baseline: "+cs[0].A)
	names := ColumnNames(cs)
	for i, c := range cs {
		writeItem(&b, md, fmt.Sprintf("%s: %s", names[i], c.B))
	}
	writeItem(&b, md, fmt.Sprintf("Mann-Whitney U test at alpha %g per column, '~' = not significant; each column's own samples and notes: compare BASE X", cs[0].Alpha))
	if md {
		b.WriteString("\n")
	}
	if err := writeNWayTable(&b, cs, md); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// nwayKey names one row: the baseline's pair, an operation, a metric.
type nwayKey struct{ pair, op, metric string }

// writeNWayTable writes the rows in the first comparison's order, then
// any a later comparison adds.
func writeNWayTable(w io.Writer, cs []*Comparison, md bool) error {
	var keys []nwayKey
	base := map[nwayKey]float64{}
	cols := make([]map[nwayKey]Metric, len(cs))
	for i, c := range cs {
		cols[i] = map[nwayKey]Metric{}
		for _, p := range c.Pairs {
			for _, oc := range p.Ops {
				for _, m := range oc.Metrics {
					k := nwayKey{p.A, oc.Op, m.Name}
					if _, seen := base[k]; !seen {
						keys = append(keys, k)
						base[k] = m.A
					}
					cols[i][k] = m
				}
			}
		}
	}
	var r tw.Renderer = renderer.NewBlueprint()
	if md {
		r = renderer.NewMarkdown()
	}
	align := tw.CellAlignment{Global: tw.AlignRight, PerColumn: []tw.Align{tw.AlignLeft, tw.AlignLeft, tw.AlignLeft}}
	t := tablewriter.NewTable(w, tablewriter.WithRenderer(r), tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignmentConfig(align), tablewriter.WithRowAlignmentConfig(align))
	header := []any{"pair", "op", "metric", "baseline"}
	for _, n := range ColumnNames(cs) {
		header = append(header, n)
	}
	t.Header(header...)
	for _, k := range keys {
		row := []any{k.pair, k.op, k.metric, metricValue(k.metric, base[k])}
		for i := range cs {
			row = append(row, nwayCell(cols[i], k))
		}
		if err := t.Append(row...); err != nil {
			return fmt.Errorf("compare table: %w", err)
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("compare table: %w", err)
	}
	return nil
}

// nwayCell is one other's figure and change: "812.0 (+4.1%)", "790.3 (~)".
func nwayCell(col map[nwayKey]Metric, k nwayKey) string {
	m, ok := col[k]
	if !ok {
		return "-"
	}
	v := metricValue(m.Name, m.B)
	if d := deltaText(m); d != "" {
		v += " (" + d + ")"
	}
	return v
}
