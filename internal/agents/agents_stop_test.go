package agents

import (
	"context"
	"math"
	"sync"
	"testing"
	"time"

	"benchbed/internal/labtest"
	"benchbed/load"
	"benchbed/results"
)

// TestRunAgentsStopAfterSeconds: the merged per-second series of two
// agents reaches Second as the run goes, and closing Stop from it ends an
// hour-long run gracefully: every agent reports done, nothing fails. Each
// second told is the agents' interval of that index as their events
// carried it (their first bytes over the longest agent's interval), in
// order, whose count is the merged run's: no bound between a count and a
// rate over an interval a loaded machine's late ticker stretched.
func TestRunAgentsStopAfterSeconds(t *testing.T) {
	srv := labtest.ObjectServer(t)
	stop := make(chan struct{})
	var once sync.Once
	var mu sync.Mutex
	var secs []float64
	counts, durs := map[int]int64{}, map[int]float64{}
	m, err := RunAgents(context.Background(), &Local{}, Job{Name: "c1", Clients: []string{"cl1", "cl2"},
		Scenario: []byte(agentsScenario), Auth: load.AuthSpec{StorageURL: srv.URL + "/v1/AUTH_t", Token: "tok"},
		Users: 4, Duration: time.Hour, Lead: 200 * time.Millisecond, Stop: stop,
		Each: func(_ int, ev results.AgentEvent) {
			if ev.Type != "interval" {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			for _, h := range ev.Ops {
				counts[ev.Index] += h.FirstByte.Count()
			}
			durs[ev.Index] = max(durs[ev.Index], ev.End.Sub(ev.Start).Seconds())
		},
		Second: func(req, _ float64) {
			mu.Lock()
			defer mu.Unlock()
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
	mu.Lock()
	defer mu.Unlock()
	if len(secs) < 2 || secs[0] <= 0 {
		t.Fatalf("seconds told: %v", secs)
	}
	for i, n := range m.PerSecond {
		if counts[i] != n {
			t.Errorf("interval %d: the events carried %d first bytes, the merged run counts %d", i, counts[i], n)
		}
	}
	// The seconds told are, in order, intervals' count / duration (a
	// short stub may be left out): each matches the next such interval.
	next := 0
	for k, got := range secs {
		from := next
		for next < len(m.PerSecond) && !sameRate(got, float64(counts[next])/durs[next]) {
			next++
		}
		if next == len(m.PerSecond) {
			t.Fatalf("second %d told %v req/s: no interval of the run's from index %d on has it (counts %v, durations %v)",
				k, got, from, m.PerSecond, durs)
		}
		next++
	}
}

// sameRate reports whether a and b are one rate, bar float rounding.
func sameRate(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
