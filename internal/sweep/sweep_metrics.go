package sweep

import (
	"sync"
	"time"

	"benchbed/internal/agents"
	"benchbed/results"
	"benchbed/results/metrics"
	"benchbed/results/telemetry"
)

// observe returns job telling the sweep's metrics observer (when set) its
// phase at the agents' shared start, every merged agent event, and the
// hosts' latest telemetry with each live figure. A fault cell's run starts
// in its fault_before phase (faultPhase moves it on).
func (ex *cellRun) observe(job agents.Job, phase string) agents.Job {
	o := ex.s.opts.Observer
	if o == nil {
		return job
	}
	c := ex.c
	if phase == metrics.PhaseRun && ex.faults != nil {
		phase = metrics.PhaseFaultBefore
	}
	st := metrics.State{Run: ex.s.run.ID, Testbed: ex.s.tb.Name, Variant: c.Variant.Name, Workload: c.Workload.Name,
		Cell: c.ID, Repeat: c.Repeat, Phase: phase, Rate: job.Rate}
	eps := jobEndpoints(job)
	started := job.Started
	job.Started = func(t time.Time) {
		o.Phase(st, eps, t)
		if started != nil {
			started(t)
		}
	}
	job.Each = o.Event
	live, sent := job.Live, &telemetrySent{last: map[string]time.Time{}}
	job.Live = func(l results.Live) {
		if live != nil {
			live(l)
		}
		if ex.tele.agents != nil {
			sent.forward(o, ex.tele.agents.Latest())
		}
	}
	return job
}

// endObserved ends the observer's phase once the agents returned.
func (s *Sweeper) endObserved() {
	if s.opts.Observer != nil {
		s.opts.Observer.End(time.Now())
	}
}

// faultPhase tells the observer a fault cell's window changed: an apply
// starts fault_during, an undo fault_after.
func (s *Sweeper) faultPhase(applied bool) {
	if s.opts.Observer == nil {
		return
	}
	phase := metrics.PhaseFaultAfter
	if applied {
		phase = metrics.PhaseFaultDuring
	}
	s.opts.Observer.Relabel(phase, time.Now())
}

// jobEndpoints is each agent's endpoint, in start order.
func jobEndpoints(j agents.Job) []string {
	n := len(j.Clients) * max(j.PerClient, 1)
	eps := make([]string, n)
	for i := range eps {
		a := j.Auth
		if j.AgentAuth != nil {
			a = j.AgentAuth(i)
		}
		eps[i] = a.URL + a.StorageURL
	}
	return eps
}

// telemetrySent forwards each host's samples once.
type telemetrySent struct {
	mu   sync.Mutex
	last map[string]time.Time // by host: the last sample sent
}

func (t *telemetrySent) forward(o metrics.Observer, latest []telemetry.Sample) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range latest {
		if s.T.After(t.last[s.Host]) {
			t.last[s.Host] = s.T
			o.Telemetry(s)
		}
	}
}
