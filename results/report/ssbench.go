package report

import "strconv"

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
