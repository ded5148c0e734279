package summary

import (
	"testing"
	"time"

	"benchbed/plan"
	"benchbed/results"
)

// TestEndpointFigures: agents 0 and 2 of a two-endpoint workload count for
// the first endpoint, agent 1 for the second; one endpoint gives no
// per-endpoint figures.
func TestEndpointFigures(t *testing.T) {
	w := &plan.Workload{Endpoints: []string{"http://p1/v1/AUTH_a", "http://p2/v1/AUTH_a"}}
	rec := func(n int) results.Recording {
		h := results.NewOpHists()
		for range n {
			h.FirstByte.Record(time.Millisecond)
			h.LastByte.Record(2 * time.Millisecond)
		}
		return results.Recording{"GET": h}
	}
	m := &results.Merged{Agents: []results.Recording{rec(10), rec(5), rec(20)}, Duration: 10 * time.Second}
	eps := EndpointFigures(w, m)
	if len(eps) != 2 || eps[0].URL != w.Endpoints[0] || eps[0].Agents != 2 || eps[0].Total.Count != 30 ||
		eps[1].Agents != 1 || eps[1].Total.Count != 5 || eps[1].Total.ReqPerS != 0.5 {
		t.Fatalf("endpoints %+v; want p1 with agents 0 and 2 (30 GETs), p2 with agent 1 (5, 0.5 req/s)", eps)
	}
	if eps := EndpointFigures(&plan.Workload{StorageURL: "http://p0/v1/AUTH_a"}, m); eps != nil {
		t.Errorf("one endpoint: %+v, want none (the cell's own figures)", eps)
	}
}
