package compare

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// WriteComparison renders a comparison as "text" (tables with borders) or
// "markdown" (headings, markdown tables, the configuration diff in a code
// block).
func WriteComparison(w io.Writer, c *Comparison, format string) error {
	md := format == "markdown"
	if !md && format != "text" {
		return fmt.Errorf("compare: unknown format %q (text, markdown, or --json)", format)
	}
	var b strings.Builder
	if err := writeVerdictFirst(&b, c.A, []*Comparison{c}, md); err != nil {
		return err
	}
	writeItem(&b, md, "A: "+c.A)
	writeItem(&b, md, "B: "+c.B)
	if len(c.Testbed) > 0 {
		b.WriteString("\ntestbed.hcl differs (A -> B):\n")
		writeBlock(&b, c.Testbed, md)
	}
	if len(c.Environment) > 0 {
		b.WriteString("\nhost environment differs (A -> B):\n")
		writeBlock(&b, c.Environment, md)
	}
	for _, wn := range c.Warnings {
		writeItem(&b, md, "warning: "+wn)
	}
	for i := range c.Pairs {
		if err := writePair(&b, c, &c.Pairs[i], md); err != nil {
			return err
		}
	}
	if len(c.OnlyA)+len(c.OnlyB) > 0 {
		b.WriteString("\n")
	}
	for _, s := range c.OnlyA {
		writeItem(&b, md, "only in A: "+s)
	}
	for _, s := range c.OnlyB {
		writeItem(&b, md, "only in B: "+s)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writePair(b *strings.Builder, c *Comparison, p *Pair, md bool) error {
	title := p.A
	if p.B != p.A {
		title = p.A + "  vs  " + p.B
	}
	if md {
		fmt.Fprintf(b, "\n## %s\n\n", title)
	} else {
		fmt.Fprintf(b, "\n== %s ==\n", title)
	}
	writeItem(b, md, fmt.Sprintf("cells: A %s; B %s", strings.Join(p.CellsA, ", "), strings.Join(p.CellsB, ", ")))
	for _, l := range samplesText(p.Samples, c.Alpha) {
		writeItem(b, md, l)
	}
	if md {
		b.WriteString("\n")
	}
	if err := writeMetrics(b, p, md); err != nil {
		return err
	}
	if err := writeFillCompare(b, p, md); err != nil {
		return err
	}
	if err := writeEndpointCompare(b, p, md); err != nil {
		return err
	}
	if err := writeFaultCompare(b, p, md); err != nil {
		return err
	}
	if md {
		b.WriteString("\n")
	}
	if err := writeTelemetryDeltas(b, p, md); err != nil {
		return err
	}
	if md && len(p.Telemetry) > 0 {
		b.WriteString("\n")
	}
	for _, n := range append(slices.Clone(p.Notes), testWarnings(p)...) {
		writeItem(b, md, "note: "+n)
	}
	switch {
	case p.Conf == nil || p.Conf.Empty():
		writeItem(b, md, "configuration: same")
	default:
		writeItem(b, md, "configuration (A -> B):")
		writeBlock(b, confLines(p.Conf), md)
	}
	return nil
}

// samplesText says what the tests compared, with the warning per-second
// samples need.
func samplesText(kind string, alpha float64) []string {
	test := fmt.Sprintf("Mann-Whitney U test at alpha %s, '~' = not significant", strconv.FormatFloat(alpha, 'g', -1, 64))
	switch kind {
	case SamplesRepeats:
		return []string{"samples: one per repeat (req/s and latency percentiles); " + test}
	case SamplesPerSecond:
		return []string{"samples: per-second throughput of each cell, first and last second dropped; " + test,
			fmt.Sprintf("warning: per-second samples are autocorrelated, so p is optimistic; %d repeats or more per side give a sound test", RepeatsNeeded(alpha)),
			"latency: from the histograms, deltas only here; the verdict above gives their intervals"}
	}
	return []string{"samples: none, no significance test"}
}

// columnAlignment puts names left and figures right.
var columnAlignment = tw.CellAlignment{Global: tw.AlignRight,
	PerColumn: []tw.Align{tw.AlignLeft, tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignLeft}}

// writeMetrics writes the table: op, metric, A, B, delta, test.
func writeMetrics(w io.Writer, p *Pair, md bool) error {
	var r tw.Renderer = renderer.NewBlueprint()
	if md {
		r = renderer.NewMarkdown()
	}
	t := tablewriter.NewTable(w, tablewriter.WithRenderer(r),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignmentConfig(columnAlignment),
		tablewriter.WithRowAlignmentConfig(columnAlignment))
	t.Header("op", "metric", "A", "B", "delta", "test")
	for _, oc := range p.Ops {
		for _, m := range oc.Metrics {
			if err := t.Append(oc.Op, m.Name, metricValue(m.Name, m.A), metricValue(m.Name, m.B), deltaText(m), testText(m.Test)); err != nil {
				return fmt.Errorf("compare table: %w", err)
			}
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("compare table: %w", err)
	}
	return nil
}

func metricValue(name string, v float64) string {
	switch name {
	case MetricReqPerS, MetricCapacity:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case MetricErrors:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// deltaText gives "~" when a test found no significant difference, else the
// change in percent, or "" when there is none to give.
func deltaText(m Metric) string {
	switch {
	case m.Test != nil && !m.Test.Significant:
		return "~"
	case m.Name == MetricErrors && m.A != m.B:
		return fmt.Sprintf("%+.0f", m.B-m.A)
	case m.DeltaPct == nil || m.Name == MetricErrors:
		return ""
	}
	return fmt.Sprintf("%+.1f%%", *m.DeltaPct)
}

func testText(t *Test) string {
	if t == nil {
		return ""
	}
	return t.String()
}

// testWarnings lists the tests' warnings once each, with the metric.
func testWarnings(p *Pair) []string {
	var out []string
	for _, oc := range p.Ops {
		for _, m := range oc.Metrics {
			if m.Test == nil {
				continue
			}
			for _, w := range m.Test.Warnings {
				if s := fmt.Sprintf("%s %s: %s", oc.Op, m.Name, w); !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// confLines gives the configuration diff as `benchbed diff` prints it:
// per group of hosts and file, per section, "key: old -> new"; then the
// ring changes and what a side did not record.
func confLines(d *ConfDiff) []string {
	var out []string
	for _, f := range d.Files {
		head := strings.Join(f.Hosts, ", ") + ": " + f.Path
		if f.Only != "" {
			out = append(out, head+" (only in "+f.Only+")")
			continue
		}
		out = append(out, head)
		section := "\x00"
		for _, c := range f.Changes {
			if c.Section != section {
				section = c.Section
				out = append(out, "  ["+section+"]")
			}
			out = append(out, "    "+c.Text)
		}
		for _, l := range f.Lines {
			out = append(out, "  "+l)
		}
	}
	out = append(out, d.Rings...)
	for _, m := range d.Missing {
		out = append(out, "not compared: "+m)
	}
	return out
}

// writeItem writes one line, a list item in markdown.
func writeItem(b *strings.Builder, md bool, s string) {
	if md {
		b.WriteString("- ")
	}
	b.WriteString(s + "\n")
}

// writeBlock writes indented lines, or a code block in markdown.
func writeBlock(b *strings.Builder, lines []string, md bool) {
	if md {
		b.WriteString("\n```\n")
	}
	for _, l := range lines {
		if !md {
			b.WriteString("  ")
		}
		b.WriteString(l + "\n")
	}
	if md {
		b.WriteString("```\n")
	}
}
