package compare

import (
	"io"
	"slices"
	"strconv"

	"benchbed/results"
)

// EndpointDelta is one endpoint's total req/s and errors on each side
// (each side's cells averaged), for workloads with several endpoints.
// An endpoint only one side has shows 0 on the other.
type EndpointDelta struct {
	URL     string  `json:"url"`
	ReqPerA float64 `json:"req_per_s_a"`
	ReqPerB float64 `json:"req_per_s_b"`
	ErrorsA float64 `json:"errors_a"`
	ErrorsB float64 `json:"errors_b"`
	P95A    float64 `json:"p95_a"` // last byte, seconds
	P95B    float64 `json:"p95_b"`
}

// compareEndpoints lines up the endpoints of both sides' cells, A's order
// first; nil when neither side has per-endpoint figures.
func compareEndpoints(a, b []*results.Cell) []EndpointDelta {
	var urls []string
	for _, c := range append(slices.Clone(a), b...) {
		for _, e := range c.Endpoints {
			if !slices.Contains(urls, e.URL) {
				urls = append(urls, e.URL)
			}
		}
	}
	out := make([]EndpointDelta, 0, len(urls))
	for _, u := range urls {
		d := EndpointDelta{URL: u}
		d.ReqPerA, d.ErrorsA, d.P95A = endpointMeans(a, u)
		d.ReqPerB, d.ErrorsB, d.P95B = endpointMeans(b, u)
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// endpointMeans averages endpoint u's total req/s, errors and last-byte
// p95 over cells (a cell without u counts as 0).
func endpointMeans(cells []*results.Cell, u string) (rps, errs, p95 float64) {
	if len(cells) == 0 {
		return 0, 0, 0
	}
	for _, c := range cells {
		for _, e := range c.Endpoints {
			if e.URL == u {
				rps += e.Total.ReqPerS
				errs += float64(e.Total.Errors)
				p95 += e.Total.LastByte.P95
			}
		}
	}
	n := float64(len(cells))
	return rps / n, errs / n, p95 / n
}

// writeEndpointCompare writes the per-endpoint table of a pair, if any.
func writeEndpointCompare(w io.Writer, p *Pair, md bool) error {
	if len(p.Endpoints) == 0 {
		return nil
	}
	f := func(x float64, prec int) string { return strconv.FormatFloat(x, 'f', prec, 64) }
	var rows [][]string
	for _, e := range p.Endpoints {
		rows = append(rows, []string{e.URL, f(e.ReqPerA, 1), f(e.ReqPerB, 1), f(e.ErrorsA, 0), f(e.ErrorsB, 0),
			f(e.P95A*1000, 2), f(e.P95B*1000, 2)})
	}
	return writeSubTable(w, md, "Per endpoint (total; each side's cells averaged; p95 to last byte, ms):", "endpoint",
		[]string{"endpoint", "req/s A", "req/s B", "errors A", "errors B", "p95 A", "p95 B"}, rows)
}
