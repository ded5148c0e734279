package report

import (
	"strconv"

	"benchbed/results"
)

// endpointTable lists, for every cell of a workload with several
// endpoints, what each endpoint served: a row per endpoint and operation
// type, with its agents, req/s, errors and last-byte percentiles.
func (r *Report) endpointTable() table {
	t := table{Title: "Per endpoint (each proxy's share; latency to last byte, ms)",
		Header: []string{"cell", "endpoint", "agents", "op", "count", "req/s", "errors", "p50", "p95", "p99"}}
	for _, c := range r.Run.Summary.Cells {
		for _, e := range c.Endpoints {
			ops := results.EndpointOps(c.Endpoints)
			for _, op := range ops {
				s := e.Ops[op]
				t.Rows = append(t.Rows, endpointRow(cellName(c), e, op, s))
			}
			if len(ops) > 1 {
				t.Rows = append(t.Rows, endpointRow(cellName(c), e, "total", e.Total))
			}
		}
	}
	return t
}

func endpointRow(cell string, e results.EndpointSummary, op string, s results.OpSummary) []string {
	return []string{cell, e.URL, strconv.Itoa(e.Agents), op, strconv.FormatInt(s.Count, 10),
		strconv.FormatFloat(s.ReqPerS, 'f', 1, 64), strconv.FormatInt(s.Errors, 10),
		ms(s.LastByte.P50), ms(s.LastByte.P95), ms(s.LastByte.P99)}
}
