package agents

import (
	"context"
	"sync"
	"testing"
	"time"

	"benchbed/internal/labtest"
	"benchbed/load"
)

// TestRunAgentsStopAfterSeconds: the merged per-second series of two
// agents reaches Second as the run goes, and closing Stop from it ends an
// hour-long run gracefully: every agent reports done, nothing fails.
func TestRunAgentsStopAfterSeconds(t *testing.T) {
	srv := labtest.ObjectServer(t)
	stop := make(chan struct{})
	var once sync.Once
	var secs []float64
	m, err := RunAgents(context.Background(), &Local{}, Job{Name: "c1", Clients: []string{"cl1", "cl2"},
		Scenario: []byte(agentsScenario), Auth: load.AuthSpec{StorageURL: srv.URL + "/v1/AUTH_t", Token: "tok"},
		Users: 4, Duration: time.Hour, Lead: 200 * time.Millisecond, Stop: stop,
		Second: func(req, _ float64) {
			secs = append(secs, req)
			if len(secs) == 2 {
				once.Do(func() { close(stop) })
			}
		}})
	if err != nil {
		t.Fatalf("a stopped run failed: %v", err)
	}
	if m.Done != 2 || m.Duration >= time.Hour || m.ClientCPU == nil {
		t.Fatalf("%d agents done after %v, client CPU %v; want 2 stopped early with their CPU", m.Done, m.Duration, m.ClientCPU)
	}
	if len(secs) < 2 || secs[0] <= 0 {
		t.Fatalf("seconds told: %v", secs)
	}
	var per int64
	for _, n := range m.PerSecond[:2] {
		per += n
	}
	if got := secs[0] + secs[1]; got < 0.9*float64(per) || got > 1.1*float64(per) {
		t.Errorf("the series' first two seconds hold %v req, the merged run %d", got, per)
	}
}
