package sweep

import (
	"testing"

	"benchbed/internal/agents"
	"benchbed/plan"
)

// TestWithEndpoints: the run's agents get verify and their own endpoints
// (agent i the workload's endpoint i modulo their number); the endpoints'
// figures are summary.EndpointFigures'.
func TestWithEndpoints(t *testing.T) {
	w := &plan.Workload{Endpoints: []string{"http://p1/v1/AUTH_a", "http://p2/v1/AUTH_a"}, Token: "t", Verify: true, VerifyWhy: plan.VerifyGivenOn}
	ar := withEndpoints(agents.Job{}, w, nil)
	if !ar.Verify || ar.AgentAuth == nil || ar.AgentAuth(1).StorageURL != w.Endpoints[1] || ar.AgentAuth(2).StorageURL != w.Endpoints[0] {
		t.Fatalf("agents' job: verify %v, endpoints wrong", ar.Verify)
	}
}
