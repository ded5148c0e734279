package results

import (
	"bytes"
	"testing"

	"benchbed/internal/golden"
)

// seedRows are seed 000's published figures (its servers_per_port rows).
func seedRows() []TableRow {
	row := func(label string, min, max, avg, sd, p95, rps float64, errs int64) TableRow {
		return TableRow{Label: label, Op: OpSummary{ReqPerS: rps, Errors: errs,
			FirstByte: Stats{Min: min, Max: max, Mean: avg, StdDev: sd, P95: p95}}}
	}
	return []TableRow{
		row("normal; 29 workers", 0.006, 19.439, 0.344, 0.565, 1.073, 2129.5, 0),
		row("threads_per_disk=1", 0.006, 19.256, 1.118, 1.342, 3.831, 903.5, 0),
		row("servers_per_port=2", 0.0071, 3.1404, 0.23749, 0.158, 0.549, 2523.94, 12),
	}
}

func TestSeedTableGolden(t *testing.T) {
	var buf bytes.Buffer
	rows := append(seedRows(), TableRow{Label: "servers_per_port=4 (failed)", Failed: true,
		Op: OpSummary{ReqPerS: 3120.4, Errors: 541, FirstByte: Stats{Min: 0.001, Max: 0.2, Mean: 0.01, StdDev: 0.01, P95: 0.05}}})
	if err := WriteTable(&buf, "64 KiB GETs; 1 hr", rows); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "seed000.table", buf.Bytes())
}

func TestCellRowsAddTotalForSeveralOps(t *testing.T) {
	c := Cell{Ops: map[string]OpSummary{"PUT": {}, "GET": {}}, Total: OpSummary{Count: 7}}
	rows := CellRows(c)
	if len(rows) != 3 || rows[0].Label != "GET" || rows[2].Label != "total" || rows[2].Op.Count != 7 {
		t.Errorf("rows = %+v", rows)
	}
	if rows := CellRows(Cell{Ops: map[string]OpSummary{"GET": {}}}); len(rows) != 1 {
		t.Errorf("one op: rows = %+v", rows)
	}
}
