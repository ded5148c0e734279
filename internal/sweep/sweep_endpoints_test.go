package sweep

import (
	"testing"
	"time"

	"benchbed/internal/agents"
	"benchbed/plan"
	"benchbed/results"
)

// TestEndpointFigures: agents 0 and 2 of a two-endpoint workload count for
// the first endpoint, agent 1 for the second; the run's agents get verify
// and their own endpoints; one endpoint gives no per-endpoint figures.
func TestEndpointFigures(t *testing.T) {
	w := &plan.Workload{Endpoints: []string{"http://p1/v1/AUTH_a", "http://p2/v1/AUTH_a"}, Token: "t", Verify: true, VerifyWhy: plan.VerifyGivenOn}
	rec := func(n int) results.Recording {
		h := results.NewOpHists()
		for range n {
			h.FirstByte.Record(time.Millisecond)
			h.LastByte.Record(2 * time.Millisecond)
		}
		return results.Recording{"GET": h}
	}
	m := &results.Merged{Agents: []results.Recording{rec(10), rec(5), rec(20)}, Duration: 10 * time.Second}
	eps := endpointFigures(w, m)
	if len(eps) != 2 || eps[0].URL != w.Endpoints[0] || eps[0].Agents != 2 || eps[0].Total.Count != 30 ||
		eps[1].Agents != 1 || eps[1].Total.Count != 5 || eps[1].Total.ReqPerS != 0.5 {
		t.Fatalf("endpoints %+v; want p1 with agents 0 and 2 (30 GETs), p2 with agent 1 (5, 0.5 req/s)", eps)
	}
	ar := withEndpoints(agents.Job{}, w, nil)
	if !ar.Verify || ar.AgentAuth == nil || ar.AgentAuth(1).StorageURL != w.Endpoints[1] || ar.AgentAuth(2).StorageURL != w.Endpoints[0] {
		t.Fatalf("agents' job: verify %v, endpoints wrong", ar.Verify)
	}
	if eps := endpointFigures(&plan.Workload{StorageURL: "http://p0/v1/AUTH_a"}, m); eps != nil {
		t.Errorf("one endpoint: %+v, want none (the cell's own figures)", eps)
	}
}
