package agents

import (
	"context"
	"strings"
	"testing"
	"time"

	"benchbed/internal/labtest"
	"benchbed/load"
)

// TestStartLeadFromTheMeasures: the slowest client's round trip and offset
// plus the margin, never under the minimum nor over the old fixed second.
func TestStartLeadFromTheMeasures(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		clocks []clock
		want   time.Duration
	}{
		{nil, leadMin},
		{[]clock{{uncertainty: ms}}, leadMin}, // 2 ms + 250 ms is under the minimum
		{[]clock{{uncertainty: 40 * ms}, {offset: -30 * ms, uncertainty: 20 * ms}}, 80*ms + leadMargin},
		{[]clock{{offset: 60 * ms, uncertainty: 5 * ms}}, 70*ms + leadMargin},
		{[]clock{{uncertainty: 600 * ms}}, leadMax},
	} {
		if got := startLead(c.clocks); got != c.want {
			t.Errorf("startLead(%v) = %v, want %v", c.clocks, got, c.want)
		}
	}
}

// TestStartAtWaitsForNewAgents: the measured lead after the jobs are sent,
// but never sooner than leadMax after the agents' processes started; a
// job's own lead replaces the measured one.
func TestStartAtWaitsForNewAgents(t *testing.T) {
	t0 := time.Unix(1000, 0)
	p := &Prepared{lead: 400 * time.Millisecond, spawned: t0}
	for _, c := range []struct {
		now  time.Duration // after the spawn
		lead time.Duration
		want time.Duration // after the spawn
	}{
		{5 * time.Second, 0, 5*time.Second + 400*time.Millisecond},
		{200 * time.Millisecond, 0, leadMax},
		{800 * time.Millisecond, 0, 1200 * time.Millisecond},
		{5 * time.Second, 2 * time.Second, 7 * time.Second},
	} {
		if got := p.startAt(t0.Add(c.now), c.lead); !got.Equal(t0.Add(c.want)) {
			t.Errorf("jobs sent %v after the spawn, lead %v: start %v after it, want %v", c.now, c.lead, got.Sub(t0), c.want)
		}
	}
}

// TestPreparedRunsOnceAndCloses: agents prepared ahead wait for their
// job; a run of them takes the measured lead and merges every agent, a
// second run is refused, and a prepared run never run is closed with its
// agents ended.
func TestPreparedRunsOnceAndCloses(t *testing.T) {
	la, job, p := preparedTwo(t)
	if la.started != 2 || len(la.Jobs) != 0 {
		t.Fatalf("%d agents started, %d jobs sent: want 2 waiting for their jobs", la.started, len(la.Jobs))
	}
	if p.Lead() != leadMin { // Local's clocks: 1 ms uncertainty
		t.Fatalf("lead %v, want %v", p.Lead(), leadMin)
	}
	before := time.Now()
	m, err := p.Run(context.Background(), job)
	if err != nil || m.Done != 2 {
		t.Fatalf("run: %v, %d agents done", err, m.Done)
	}
	if at := la.Jobs[0].StartAt; at.Before(before.Add(leadMin - time.Millisecond)) {
		t.Fatalf("start_at %v is less than the lead after %v", at, before)
	}
	if _, err := p.Run(context.Background(), job); err == nil {
		t.Fatal("a second run of the same agents was accepted")
	}
	if err := p.Close(); err != nil {
		t.Fatalf("close after the run: %v", err)
	}
	q, err := Prepare(context.Background(), la, job)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- q.Close() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("closing unused agents did not end them")
	}
	if len(la.Jobs) != 2 {
		t.Fatalf("%d jobs: the closed agents got one", len(la.Jobs))
	}
}

// TestAgainReusesTheClientChecks: the next set of prepared agents starts
// on the same hosts without checking the install and clocks again while
// the first checks are recent, and runs its own job; once they are older
// than clockReuse they are made again, and a clock that moved meanwhile
// is refused.
func TestAgainReusesTheClientChecks(t *testing.T) {
	la, job, p := preparedTwo(t)
	q, err := p.Again(context.Background(), la)
	if err != nil {
		t.Fatal(err)
	}
	if la.started != 4 || len(la.installs) != 2 || q.Lead() != p.Lead() {
		t.Fatalf("%d agents started, %d installs, lead %v after %v: want 4 agents on the 2 clients checked once", la.started, len(la.installs), q.Lead(), p.Lead())
	}
	for _, r := range []*Prepared{p, q} {
		if m, err := r.Run(context.Background(), job); err != nil || m.Done != 2 {
			t.Fatalf("run: %v, %+v", err, m)
		}
	}
	if len(la.Jobs) != 4 {
		t.Fatalf("%d jobs, want each set's 2", len(la.Jobs))
	}
	q.checked = q.checked.Add(-clockReuse)
	la.offsets = map[string]time.Duration{"cl2": 5 * load.MaxSkew}
	if r, err := q.Again(context.Background(), la); err == nil || !strings.Contains(err.Error(), "cl2: its clock is") {
		_ = r.Close()
		t.Fatalf("a clock off by %v after the checks' time was not refused: %v", 5*load.MaxSkew, err)
	}
	if len(la.installs) != 4 || la.started != 4 {
		t.Fatalf("%d installs, %d agents started: want the clients checked again and no agent started", len(la.installs), la.started)
	}
}

// preparedTwo prepares, on Local, a 200 ms job of two agents on two
// clients against an object server.
func preparedTwo(t *testing.T) (*Local, Job, *Prepared) {
	srv := labtest.ObjectServer(t)
	la := &Local{}
	job := Job{Name: "c1", Clients: []string{"cl1", "cl2"}, Scenario: []byte(agentsScenario),
		Auth: load.AuthSpec{StorageURL: srv.URL + "/v1/AUTH_t", Token: "tok"}, Users: 4, Duration: 200 * time.Millisecond}
	p, err := Prepare(context.Background(), la, job)
	if err != nil {
		t.Fatal(err)
	}
	return la, job, p
}
