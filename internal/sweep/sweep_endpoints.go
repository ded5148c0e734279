package sweep

import (
	"benchbed/internal/agents"
	"benchbed/load"
	"benchbed/plan"
)

// withEndpoints gives the agents of w's run in variant v their endpoints
// (agent i reaches w.AgentEndpoint(i)) and the cell's verify (on by
// default for an erasure-coded policy and in a fault cell).
func withEndpoints(ar agents.Job, w *plan.Workload, v *plan.Variant) agents.Job {
	ar.Verify, _ = w.VerifyIn(v)
	ar.AgentAuth = func(i int) load.AuthSpec { return agents.WorkloadAgentAuth(w, i) }
	return ar
}
