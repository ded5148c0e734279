package sweep

import (
	"benchbed/internal/agents"
	"benchbed/load"
	"benchbed/plan"
	"benchbed/results"
)

// withEndpoints gives the agents of w's run in variant v their endpoints
// (agent i reaches w.AgentEndpoint(i)) and the cell's verify (on by
// default for an erasure-coded policy and in a fault cell).
func withEndpoints(ar agents.Job, w *plan.Workload, v *plan.Variant) agents.Job {
	ar.Verify, _ = w.VerifyIn(v)
	ar.AgentAuth = func(i int) load.AuthSpec { return agents.WorkloadAgentAuth(w, i) }
	return ar
}

// endpointFigures is what each of w's endpoints served in a run merged
// into m (nil for one endpoint): agent i's recording counted for
// w.AgentEndpoint(i).
func endpointFigures(w *plan.Workload, m *results.Merged) []results.EndpointSummary {
	urls := make([]string, len(m.Agents))
	for i := range urls {
		urls[i] = w.AgentEndpoint(i)
	}
	return results.SummariseEndpoints(results.EndpointRecordings(urls, m.Agents), m.Duration)
}
