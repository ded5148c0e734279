package report

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"benchbed/results"
)

// commandCells are the run's cells of command workloads: those with metrics.
func (r *Report) commandCells() []results.Cell {
	var out []results.Cell
	for _, c := range r.Run.Summary.Cells {
		if len(c.Metrics) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// swiftCells reports whether the run has a cell of a Swift workload.
func (r *Report) swiftCells() bool {
	return slices.ContainsFunc(r.Run.Summary.Cells, func(c results.Cell) bool { return len(c.Metrics) == 0 })
}

// MetricColumns are the command workloads' table's columns: one per
// command workload in the order of its first cell, its throughput (or,
// without one, its first metric by name).
func (r *Report) MetricColumns() []results.MetricColumn {
	var cols []results.MetricColumn
	for _, c := range r.commandCells() {
		if slices.ContainsFunc(cols, func(m results.MetricColumn) bool { return m.Workload == c.Workload }) {
			continue
		}
		name := "throughput"
		if _, ok := c.Metrics[name]; !ok {
			name = slices.Sorted(maps.Keys(c.Metrics))[0]
		}
		cols = append(cols, results.MetricColumn{Workload: c.Workload, Metric: name, Unit: c.Metrics[name].Unit})
	}
	return cols
}

// metricTable lists every command cell's metrics: value, unit, how the
// copies combine, and each copy's figure.
func (r *Report) metricTable() table {
	t := table{Title: "Command workloads' figures per cell", Header: []string{"cell", "metric", "value", "unit", "copies", "per copy"}}
	for _, c := range r.commandCells() {
		for _, name := range slices.Sorted(maps.Keys(c.Metrics)) {
			m := c.Metrics[name]
			per := make([]string, len(m.PerCopy))
			for i, x := range m.PerCopy {
				per[i] = strconv.FormatFloat(x, 'g', 6, 64)
			}
			value := strconv.FormatFloat(m.Value, 'g', 6, 64)
			if !c.OK() {
				value = c.Status + ": " + value
			}
			t.Rows = append(t.Rows, []string{cellName(c), name, value, m.Unit, m.How, strings.Join(per, " ")})
		}
	}
	return t
}
