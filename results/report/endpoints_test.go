package report

import (
	"bytes"
	"testing"

	"benchbed/results"
	"benchbed/results/rundir"
)

// A cell with several endpoints gets a row per endpoint and operation in
// the text report, with its own req/s and errors; a cell with one gets none.
func TestEndpointTable(t *testing.T) {
	get := func(n, errs int64, rps, p95 float64) results.OpSummary {
		return results.OpSummary{Count: n, Errors: errs, ReqPerS: rps, LastByte: results.Stats{P50: p95 / 2, P95: p95, P99: p95 * 2}}
	}
	cells := []results.Cell{
		{ID: "001-n-get", Workload: "get", Status: "ok", Ops: map[string]results.OpSummary{"GET": get(30, 1, 15, 0.02)},
			Total: get(30, 1, 15, 0.02), Endpoints: []results.EndpointSummary{
				{URL: "http://p1:8080/auth/v1.0", Agents: 2, Ops: map[string]results.OpSummary{"GET": get(20, 0, 10, 0.01)}, Total: get(20, 0, 10, 0.01)},
				{URL: "http://p2:8080/auth/v1.0", Agents: 1, Ops: map[string]results.OpSummary{"GET": get(10, 1, 5, 0.03)}, Total: get(10, 1, 5, 0.03)},
			}},
		{ID: "002-n-put", Workload: "put", Status: "ok", Ops: map[string]results.OpSummary{"PUT": get(5, 0, 1, 0.1)}, Total: get(5, 0, 1, 0.1)},
	}
	r := &Report{Run: &rundir.RunResults{Summary: results.Summary{Run: "r", Testbed: "t", Cells: cells}}}
	tb := r.endpointTable()
	if len(tb.Rows) != 2 {
		t.Fatalf("rows %v, want one per endpoint of cell 001", tb.Rows)
	}
	var b bytes.Buffer
	if err := r.WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	inOrder(t, b.String(), "Per endpoint", "001-n-get", "http://p1:8080/auth/v1.0", "2", "GET", "20", "10.0", "0", "5.00", "10.00", "20.00",
		"001-n-get", "http://p2:8080/auth/v1.0", "1", "GET", "10", "5.0", "1", "15.00", "30.00", "60.00")
}
