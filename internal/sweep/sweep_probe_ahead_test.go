package sweep

import (
	"bytes"
	"context"
	"io"
	"net/http/httptest"
	"testing"
	"time"

	"benchbed/internal/agents"
	"benchbed/internal/labtest"
	"benchbed/plan"
	"benchbed/plan/schedule"
)

// heldAgents are countedAgents whose every agent that had its job holds
// its stream's end until the next agent has started: a run on them ends
// only once the next run's agents are started, as they are when a search
// prepares each probe's agents during the one before (the warm-up's
// before the first). An agent whose next never came counts as late after
// 20 s; onStart, when set, learns each start's count.
type heldAgents struct {
	countedAgents
	next    []chan struct{} // next[i] closed once agent i+1 has started
	late    int
	onStart func(started int)
}

func (h *heldAgents) Start(ctx context.Context, host, bin string) (*agents.Proc, error) {
	p, err := h.countedAgents.Start(ctx, host, bin)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	if n := len(h.next); n > 0 {
		close(h.next[n-1])
	}
	next := make(chan struct{})
	h.next = append(h.next, next)
	n := len(h.next)
	h.mu.Unlock()
	p.Stdout = &heldEnd{r: p.Stdout, next: next, h: h}
	if h.onStart != nil {
		h.onStart(n)
	}
	return p, nil
}

// heldEnd is an agent's stream whose end, once the agent told it had its
// job ("ready"), waits for the next agent's start.
type heldEnd struct {
	r     io.Reader
	next  chan struct{}
	h     *heldAgents
	ready bool
}

func (e *heldEnd) Read(b []byte) (int, error) {
	n, err := e.r.Read(b)
	e.ready = e.ready || bytes.Contains(b[:n], []byte(`"type":"ready"`))
	if err == io.EOF && e.ready {
		e.ready = false
		select {
		case <-e.next:
		case <-time.After(20 * time.Second):
			e.h.mu.Lock()
			e.h.late++
			e.h.mu.Unlock()
		}
	}
	return n, err
}

// searchCell is searchTestbed's cell with a 300 ms warm-up before its
// search, on heldAgents, its probes judged as scriptedProbe says: four
// probes (40, 80, 160 and the confirming 160 req/s) at any load of this
// machine (a first probe short of its rate would end the search before
// TestInterruptedSearchLeavesNoAgent's third probe).
func searchCell(t *testing.T) (*Sweeper, schedule.CellPlan, *heldAgents) {
	srv := httptest.NewServer(&labtest.Swift{Objects: map[string]map[string]int64{}})
	t.Cleanup(srv.Close)
	s := bareSweeper(t)
	ha := &heldAgents{countedAgents: countedAgents{Local: &agents.Local{}}}
	s.tb, s.opts.Agents, s.scriptProbe = searchTestbed(t, srv.URL), ha, scriptedProbe
	s.tb.Sweep.Warmup = 300 * time.Millisecond
	return s, schedule.CellPlan{Cell: plan.Expand(s.tb)[0], Steps: []schedule.Step{{Kind: schedule.StepWarmup}, {Kind: schedule.StepSearch}}}, ha
}

// TestSearchProbesOnAgentsStartedAhead: each probe's agents are started
// before the run before it ends (the first probe's during the warm-up,
// each next one's during the probe before): no agent's run waits in vain
// for the next. Every probe runs its job, at its rate, on agents of its
// own; the one set started after the last probe gets no job and is
// ended, as every agent is when the cell ends.
func TestSearchProbesOnAgentsStartedAhead(t *testing.T) {
	s, cp, ha := searchCell(t)
	res, err := s.runCell(context.Background(), cp, false)
	if err != nil || res.Search == nil {
		t.Fatalf("%v (%+v)", err, res)
	}
	probes := res.Search.Probes
	if ha.late != 0 {
		t.Errorf("%d runs ended before the next run's agents were started", ha.late)
	}
	if len(ha.Jobs) != 1+len(probes) || ha.started != len(ha.Jobs)+1 || ha.ended != ha.started {
		t.Fatalf("%d probes: %d agents started, %d ended, %d jobs; want the warm-up's and each probe's, one job each, and one more set ended without a job",
			len(probes), ha.started, ha.ended, len(ha.Jobs))
	}
	for i, p := range probes {
		if got := ha.Jobs[i+1].Rate; got != p.Offered {
			t.Errorf("probe %d at %v req/s: its agent's job at %v", i+1, p.Offered, got)
		}
	}
}

// TestInterruptedSearchLeavesNoAgent: a search interrupted during its
// second probe ends that probe's agents and the next probe's, already
// started: every agent started has ended as the cell returns.
func TestInterruptedSearchLeavesNoAgent(t *testing.T) {
	s, cp, ha := searchCell(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ha.onStart = func(started int) {
		if started == 4 { // the warm-up's, the first probe's, the second's, the third's
			cancel()
		}
	}
	res, err := s.runCell(ctx, cp, false)
	if err == nil || res.Status != "interrupted" {
		t.Fatalf("an interrupted search: %v, status %s", err, res.Status)
	}
	if ha.started != 4 || ha.ended != ha.started || len(ha.Jobs) != 3 {
		t.Fatalf("%d agents started, %d ended, %d jobs: want the warm-up's and two probes' jobs, the third probe's agents ended without one",
			ha.started, ha.ended, len(ha.Jobs))
	}
}
