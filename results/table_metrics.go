package results

import (
	"fmt"
	"io"
	"strconv"
)

// MetricColumn is one column of a command workloads' table: a workload and
// the metric of its cells it shows.
type MetricColumn struct {
	Workload string
	Metric   string
	Unit     string // the metric's unit, for the header ("" = none)
}

// MetricLegend says how WriteMetricTable's figures are computed.
const MetricLegend = "Each figure: the workload's metric over its copies run at once (rates, sizes and counts summed, " +
	"times averaged), then the mean over the repeats that finished, ± sample standard deviation when more " +
	"than one did (n: finished of all); - where the variant has no cell of the workload (its variants leave it out, or the sweep stopped first). " +
	"Rates are MB/s, 10^6 bytes per second, whatever unit the tool printed."

// WriteMetricTable renders seed 004's table as markdown: one row per
// variant (in the order of cells), one column per workload, each figure
// its metric over the variant's repeats, followed by MetricLegend. title
// heads the first column.
func WriteMetricTable(w io.Writer, title string, cells []Cell, cols []MetricColumn) error {
	t := markdownTable(w)
	header := []string{title}
	for _, c := range cols {
		h := c.Workload
		if c.Unit != "" {
			h += " " + c.Unit
		}
		header = append(header, h)
	}
	t.Header(header)
	for _, v := range variantsOf(cells) {
		row := []string{v}
		for _, col := range cols {
			row = append(row, metricFigure(cells, v, col))
		}
		if err := t.Append(row); err != nil {
			return fmt.Errorf("table: %w", err)
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("table: %w", err)
	}
	_, err := fmt.Fprintf(w, "\n%s\n", MetricLegend)
	return err
}

// PerRepeat lists metric's value in each finished cell of (variant,
// workload), in cell order, and how many cells there are in all.
func PerRepeat(cells []Cell, variant, workload, metric string) (xs []float64, all int) {
	for _, c := range cells {
		if c.Variant != variant || c.Workload != workload {
			continue
		}
		all++
		if m, ok := c.Metrics[metric]; ok && c.OK() {
			xs = append(xs, m.Value)
		}
	}
	return xs, all
}

// metricFigure is one figure of the table: "-" when the pair has no
// cell, "failed (0/n)" when none finished.
func metricFigure(cells []Cell, variant string, col MetricColumn) string {
	xs, all := PerRepeat(cells, variant, col.Workload, col.Metric)
	switch {
	case all == 0:
		return "-"
	case len(xs) == 0:
		return fmt.Sprintf("failed (0/%d)", all)
	}
	sp := NewSpread(xs)
	s := figure(sp.Mean)
	if len(xs) > 1 {
		s += " ± " + figure(sp.StdDev)
	}
	if all > 1 {
		s += fmt.Sprintf(" (n=%d/%d)", len(xs), all)
	}
	return s
}

// figure prints x with 3 significant decimals below 10, one above.
func figure(x float64) string {
	if x < 10 && x > -10 {
		return strconv.FormatFloat(x, 'f', 3, 64)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// variantsOf lists the cells' variants in the order they first appear.
func variantsOf(cells []Cell) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range cells {
		if !seen[c.Variant] {
			seen[c.Variant] = true
			out = append(out, c.Variant)
		}
	}
	return out
}
