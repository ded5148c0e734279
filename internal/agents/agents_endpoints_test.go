package agents

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"benchbed/load"
	"benchbed/plan"
)

// countingSwift answers every request with token tok like
// labtest.ObjectServer ("0123456789": not what benchbed writes) and
// counts them.
func countingSwift(t *testing.T, n *atomic.Int64) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Auth-Token") != "tok" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		n.Add(1)
		io.WriteString(w, "0123456789")
	}))
	t.Cleanup(s.Close)
	return s
}

// TestRunAgentsEndpointsAndVerify: with AgentAuth from a workload of two
// endpoints, agent i reaches endpoint i mod 2 (both servers get requests),
// each agent's recording is kept by stream, and Verify reaches the agents:
// the fake's bodies are not benchbed's content, so GETs count corrupt.
func TestRunAgentsEndpointsAndVerify(t *testing.T) {
	var na, nb atomic.Int64
	a, b := countingSwift(t, &na), countingSwift(t, &nb)
	w := &plan.Workload{Endpoints: []string{a.URL + "/v1/AUTH_t", b.URL + "/v1/AUTH_t"}, Token: "tok"}
	la := &Local{}
	m, err := RunAgents(context.Background(), la, Job{Name: "c1", Clients: []string{"cl1"}, PerClient: 3,
		Scenario: []byte(agentsScenario), Auth: WorkloadAuth(w), Verify: true,
		AgentAuth: func(i int) load.AuthSpec { return WorkloadAgentAuth(w, i) },
		Users:     3, Duration: 300 * time.Millisecond, Lead: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(la.Jobs) != 3 || len(m.Agents) != 3 {
		t.Fatalf("%d jobs, %d agent recordings; want 3 and 3", len(la.Jobs), len(m.Agents))
	}
	for _, j := range la.Jobs {
		want := w.Endpoints[j.Part%2]
		if j.Auth.StorageURL != want || j.Auth.Token != "tok" || !j.Verify {
			t.Errorf("agent %d: auth %+v verify %v; want storage URL %s, the token, verify", j.Part, j.Auth, j.Verify, want)
		}
		if g := m.Agents[j.Part]["GET"]; g == nil || g.ErrorCount() == 0 {
			t.Errorf("agent %d: its own recording has no failed GET: %+v", j.Part, m.Agents[j.Part])
		}
	}
	if na.Load() == 0 || nb.Load() == 0 {
		t.Errorf("requests per endpoint: %d and %d; want both", na.Load(), nb.Load())
	}
	if g := m.Recording["GET"]; g == nil || g.Errors["corrupt"] == 0 {
		t.Errorf("merged GETs %+v: want corrupt errors (verify on, the fake's bodies differ)", g)
	}
}

// TestWorkloadAgentAuth: with an auth block each agent authenticates at
// its endpoint with the workload's user and key; without, a lone storage
// URL serves every agent.
func TestWorkloadAgentAuth(t *testing.T) {
	w := &plan.Workload{Auth: &plan.Auth{URL: "http://p0/auth/v1.0", User: "u:u", Key: "k"},
		Endpoints: []string{"http://p1/auth/v1.0", "http://p2/auth/v1.0"}}
	if a := WorkloadAgentAuth(w, 3); a.URL != "http://p2/auth/v1.0" || a.User != "u:u" || a.Key != "k" || a.StorageURL != "" {
		t.Errorf("agent 3: %+v, want p2's auth URL with the workload's user and key", a)
	}
	w = &plan.Workload{StorageURL: "http://p0/v1/AUTH_a", Token: "t"}
	if a := WorkloadAgentAuth(w, 5); a.StorageURL != "http://p0/v1/AUTH_a" || a.Token != "t" || a.URL != "" {
		t.Errorf("agent 5 without endpoints: %+v, want the storage URL and token", a)
	}
}
