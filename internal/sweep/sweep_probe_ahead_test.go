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
// its stream's end until a spare agent is started (one waiting for its
// job): a run on them ends only once the next run's agents are started, as
// they are when a search prepares each probe's agents during the one
// before (the warm-up's before the first). Spare, not the next started
// after it: the warm-up's agents and the first probe's are started side by
// side, in either order. An agent with no spare in sight counts as late
// after 2 minutes (a limit that only stops a broken cell); onStart, when set,
// learns each start's count.
type heldAgents struct {
	countedAgents
	jobs    int           // agents that were sent their job
	changed chan struct{} // closed and replaced at every start and job
	late    int
	onStart func(started int)
}

func (h *heldAgents) Start(ctx context.Context, host, bin string) (*agents.Proc, error) {
	p, err := h.countedAgents.Start(ctx, host, bin)
	if err != nil {
		return nil, err
	}
	p.Stdout = &heldEnd{r: p.Stdout, h: h}
	p.Stdin = &jobbedIn{WriteCloser: p.Stdin, h: h}
	h.mu.Lock()
	n := h.started
	h.changedLocked()
	h.mu.Unlock()
	if h.onStart != nil {
		h.onStart(n)
	}
	return p, nil
}

// changedLocked wakes the agents waiting for a spare (h.mu held).
func (h *heldAgents) changedLocked() {
	if h.changed != nil {
		close(h.changed)
	}
	h.changed = make(chan struct{})
}

// waitSpare waits until an agent started is still waiting for its job,
// or counts the caller late after 2 minutes (a hang guard).
func (h *heldAgents) waitSpare() {
	limit := time.After(2 * time.Minute)
	for {
		h.mu.Lock()
		if h.started > h.jobs {
			h.mu.Unlock()
			return
		}
		changed := h.changed
		h.mu.Unlock()
		select {
		case <-changed:
		case <-limit:
			h.mu.Lock()
			h.late++
			h.mu.Unlock()
			return
		}
	}
}

// jobbedIn is an agent's stdin: its first write is its job.
type jobbedIn struct {
	io.WriteCloser
	h   *heldAgents
	job bool
}

func (w *jobbedIn) Write(b []byte) (int, error) {
	if !w.job {
		w.job = true
		w.h.mu.Lock()
		w.h.jobs++
		w.h.changedLocked()
		w.h.mu.Unlock()
	}
	return w.WriteCloser.Write(b)
}

// heldEnd is an agent's stream whose end, once the agent told it had its
// job ("ready"), waits for a spare agent.
type heldEnd struct {
	r     io.Reader
	h     *heldAgents
	ready bool
}

func (e *heldEnd) Read(b []byte) (int, error) {
	n, err := e.r.Read(b)
	e.ready = e.ready || bytes.Contains(b[:n], []byte(`"type":"ready"`))
	if err == io.EOF && e.ready {
		e.ready = false
		e.h.waitSpare()
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
