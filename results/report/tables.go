package report

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"benchbed/results"
)

// table is one table of the report, rendered as text, markdown or HTML.
type table struct {
	Title  string
	Header []string
	Rows   [][]string
	Class  string // the HTML table's class, "" for none
	Legend string // what its figures mean, said under it; "" for none
	// Keys is how many first columns name a row (0: one): a table too
	// wide for the text is split into parts that each begin with them.
	Keys int
}

// ms formats seconds as milliseconds with 2 decimals.
func ms(sec float64) string { return strconv.FormatFloat(sec*1000, 'f', 2, 64) }

func f1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// TableTitle heads the ssbench-style table: the workload when there is one, else
// the testbed's name.
func (r *Report) TableTitle() string {
	s := r.Run.Summary
	w := ""
	for _, c := range s.Cells {
		if w != "" && c.Workload != w {
			return s.Testbed
		}
		w = c.Workload
	}
	return w
}

// TableRows are the ssbench-style table's rows: one per cell, the total's figures,
// labelled by variant (and workload and repeat when those vary), a cell
// that is not ok saying its status.
func (r *Report) TableRows() []results.TableRow {
	cells := r.Run.Summary.Cells
	multiWorkload := r.TableTitle() != cells[0].Workload
	repeated := len(Groups(cells)) < len(cells)
	var rows []results.TableRow
	for _, c := range cells {
		if len(c.Metrics) > 0 {
			continue // a command workload's: WriteMetricTable
		}
		label := c.Variant
		if label == "" || multiWorkload {
			label = strings.TrimSpace(label + " " + c.Workload)
		}
		if repeated {
			label += " #" + strconv.Itoa(c.Repeat)
		}
		if !c.OK() {
			label += " (" + c.Status + ")"
		}
		rows = append(rows, results.TableRow{Label: label, Op: c.Total, Failed: !c.OK()})
	}
	return rows
}

// RepeatRows are the repeats' table's rows (results.WriteRepeatTable): one
// per variant and workload, over its repeats; nil without repeats.
func (r *Report) RepeatRows() []results.RepeatRow {
	if len(r.Repeats) == 0 {
		return nil
	}
	cells := r.Run.Summary.Cells
	var rows []results.RepeatRow
	for _, g := range Groups(cells) {
		row := results.RepeatRow{Label: g[0].Variant}
		if row.Label == "" || hasWorkloads(cells) {
			row.Label = strings.TrimSpace(row.Label + " / " + g[0].Workload)
		}
		for _, c := range g {
			row.Add(c)
		}
		rows = append(rows, row)
	}
	return rows
}

// opTable lists every cell's operation types (and their total when there
// are several): count, req/s, errors and first- and last-byte percentiles.
// A cell that is not ok has its status before its req/s.
func (r *Report) opTable() table {
	t := table{Title: "Per operation (latencies in ms)", Keys: 2, Header: []string{"cell", "op", "count", "req/s", "errors",
		"fb p50", "fb p95", "fb p99", "fb p99.9", "fb max", "lb p50", "lb p95", "lb p99", "lb p99.9", "lb max"}}
	for _, c := range r.Run.Summary.Cells {
		if len(c.Metrics) > 0 {
			continue // a command workload's: metricTable
		}
		for _, row := range results.CellRows(c) {
			o, fb, lb := row.Op, row.Op.FirstByte, row.Op.LastByte
			req := f1(o.ReqPerS)
			if !c.OK() {
				req = c.Status + ": " + req // never a failed cell's req/s as a result
			}
			t.Rows = append(t.Rows, []string{cellName(c), row.Label, strconv.FormatInt(o.Count, 10), req,
				strconv.FormatInt(o.Errors, 10), ms(fb.P50), ms(fb.P95), ms(fb.P99), ms(fb.P999), ms(fb.Max),
				ms(lb.P50), ms(lb.P95), ms(lb.P99), ms(lb.P999), ms(lb.Max)})
		}
	}
	return t
}

// repeatTable shows the mean and spread over each cell's repeats.
func (r *Report) repeatTable() table {
	t := table{Title: "Repeats (mean ± sample stddev over the ok repeats; latencies in ms)",
		Header: []string{"variant", "workload", "ok/runs", "req/s", "req/s min", "req/s max", "req/s cv",
			"fb mean", "fb p95", "fb p99", "errors"}}
	for _, g := range r.Repeats {
		t.Rows = append(t.Rows, []string{g.Variant, g.Workload, fmt.Sprintf("%d/%d", g.OK, len(g.Cells)),
			f1(g.ReqPerS.Mean) + " ± " + f1(g.ReqPerS.StdDev), f1(g.ReqPerS.Min), f1(g.ReqPerS.Max),
			strconv.FormatFloat(g.ReqPerS.CV*100, 'f', 1, 64) + "%",
			pm(g.FirstByteMean), pm(g.FirstByteP95), pm(g.FirstByteP99), strconv.FormatInt(g.Errors, 10)})
	}
	return t
}

func pm(s results.Spread) string { return ms(s.Mean) + " ± " + ms(s.StdDev) }

// errorTable lists the failed operations by cause, per cell.
func (r *Report) errorTable() table {
	t := table{Title: "Failed operations by cause", Header: []string{"cell", "op", "cause", "count"}}
	for _, c := range r.Run.Summary.Cells {
		for _, op := range slices.Sorted(maps.Keys(c.Ops)) {
			by := c.Ops[op].ErrorsBy
			for _, k := range slices.Sorted(maps.Keys(by)) {
				t.Rows = append(t.Rows, []string{cellName(c), op, k, strconv.FormatInt(by[k], 10)})
			}
		}
	}
	return t
}

// stepTable lists the journal's steps and how long each took.
func (r *Report) stepTable() table {
	t := table{Title: "Journal: steps and durations", Header: []string{"step", "cell", "host", "status", "start", "seconds", "detail"}}
	for _, s := range r.Steps {
		t.Rows = append(t.Rows, []string{s.Name, s.Cell, s.Host, s.Status, s.Start.UTC().Format("15:04:05"),
			strconv.FormatFloat(s.Duration.Seconds(), 'f', 1, 64), s.Detail})
	}
	return t
}

// envTable summarises each host's environment: its kernel, CPU, memory
// (in GiB) and Swift lines (the full text is in the HTML page); hosts of
// one kernel with the same lines are one row.
func (r *Report) envTable() table {
	t := table{Title: "Hosts", Header: []string{"host", "kernel", "cpus", "memory", "swift"}}
	groups := r.kernelGroups()
	var rowOf []string // the row's kernel group, "" for none
	for _, h := range r.Env {
		sec := envSections(h.Text)
		row := []string{h.Host, firstLine(sec["kernel"]), firstLine(sec["cpu"]), memText(sec["memory"]), firstLine(sec["swift"])}
		g := ""
		if kg := groupOf(groups, h.Host); kg != nil {
			g = kg.Label()
		}
		i := slices.IndexFunc(t.Rows, func(o []string) bool { return slices.Equal(o[1:], row[1:]) })
		if g != "" && i >= 0 && rowOf[i] == g {
			t.Rows[i][0] += ", " + h.Host
			continue
		}
		t.Rows, rowOf = append(t.Rows, row), append(rowOf, g)
	}
	nameGroups(t.Rows, rowOf)
	return t
}

// nameGroups names a row that holds all its kernel group's hosts after the
// group, its hosts in the telemetry's order.
func nameGroups(rows [][]string, rowOf []string) {
	for i, g := range rowOf {
		if g != "" && len(strings.Split(rows[i][0], ", ")) == len(strings.Split(g, ", ")) {
			rows[i][0] = g
		}
	}
}

// envSections splits env/<host>.txt into its "## name" sections.
func envSections(text string) map[string]string {
	out := map[string]string{}
	name := ""
	for line := range strings.SplitSeq(text, "\n") {
		if n, ok := strings.CutPrefix(line, "## "); ok {
			name = strings.TrimSpace(n)
			continue
		}
		if name != "" && strings.TrimSpace(line) != "" {
			out[name] += line + "\n"
		}
	}
	return out
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return strings.Join(strings.Fields(l), " ")
}

// ssbenchLegend says what ssbenchTable counts, under it.
const ssbenchLegend = "min, max, avg, stddev and p95: time to first byte in ms; these and req/s count only the " +
	"operations that succeeded; errors: the operations that failed. A row marked (failed) is no result: its req/s says so."

// ssbenchTable is seed 000's table, ssbench's columns in the report's one
// unit of latency, ms: a row per cell (TableRows), its time to first byte
// min, max, mean, stddev and p95, req/s and errors.
func (r *Report) ssbenchTable() table {
	t := table{Title: "Time to first byte (ms), ssbench's columns",
		Header: []string{r.TableTitle(), "min", "max", "avg", "stddev", "p95", "req/s", "errors"}, Legend: ssbenchLegend}
	if !r.swiftCells() {
		return t
	}
	for _, row := range r.TableRows() {
		fb := row.Op.FirstByte
		req := f1(row.Op.ReqPerS)
		if row.Failed {
			req = "failed: " + req
		}
		t.Rows = append(t.Rows, []string{row.Label, ms(fb.Min), ms(fb.Max), ms(fb.Mean), ms(fb.StdDev), ms(fb.P95),
			req, strconv.FormatInt(row.Op.Errors, 10)})
	}
	return t
}

// leadTables are the tables before the plots: ssbench's columns, then
// the repeats' mean and spread.
func (r *Report) leadTables() []table {
	return []table{r.ssbenchTable(), r.repeatTable()}
}
