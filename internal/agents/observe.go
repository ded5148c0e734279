package agents

import (
	"sync"
	"time"

	"benchbed/plan"
	"benchbed/results"
	"benchbed/results/metrics"
	"benchbed/results/telemetry"
)

// Observer is what a sweep tells of its load phases (a metrics stream:
// metrics.Observer).
type Observer = metrics.Observer

// The phases of a sweep's load runs (Observe's phase).
const (
	PhaseWarmup = metrics.PhaseWarmup
	PhaseRun    = metrics.PhaseRun
	PhaseProbe  = metrics.PhaseProbe
)

// Observe makes *j tell o (nil: nothing) the run of cell c of run id
// run on testbed tb: its phase at the agents' shared start (a fault
// cell's run begins in fault_before), every merged agent event, and with
// each live figure the newest sample of each host tele has (nil: none).
// It returns what ends the phase once the agents returned, with their
// merged result m (nil: none). A measured run's or a probe's end first
// tells o m's duration, by which the cell's summary divides
// (results.Summarise(m.Recording, m.Duration)), so that the phase's last
// "so far" req/s is the summary's, not its count over the sum of the
// intervals' own durations; a warm-up and a fault cell's run (its phases
// change within it, its summaries are by window) end as they are.
func Observe(o Observer, j *Job, c plan.Cell, run, tb, phase string, fault bool, tele *Telemetry) (end func(m *results.Merged)) {
	if o == nil {
		return func(*results.Merged) {}
	}
	measured := phase == PhaseProbe || (phase == PhaseRun && !fault)
	if phase == PhaseRun && fault {
		phase = metrics.PhaseFaultBefore
	}
	st := metrics.State{Run: run, Testbed: tb, Variant: c.Variant.Name, Workload: c.Workload.Name,
		Cell: c.ID, Repeat: c.Repeat, Phase: phase, Rate: j.Rate}
	eps := j.endpoints()
	started := j.Started
	j.Started = func(t time.Time) {
		o.Phase(st, eps, t)
		if started != nil {
			started(t)
		}
	}
	j.Each = o.Event
	live, sent := j.Live, &telemetrySent{last: map[string]time.Time{}}
	j.Live = func(l results.Live) {
		if live != nil {
			live(l)
		}
		if tele != nil {
			sent.forward(o, tele.Latest())
		}
	}
	return func(m *results.Merged) {
		if m != nil && measured {
			o.Measured(m.Duration, time.Now())
		}
		o.End(time.Now())
	}
}

// FaultPhase tells o (nil: nothing) that a fault cell's window changed:
// an apply starts fault_during, an undo fault_after.
func FaultPhase(o Observer, applied bool) {
	if o == nil {
		return
	}
	phase := metrics.PhaseFaultAfter
	if applied {
		phase = metrics.PhaseFaultDuring
	}
	o.Relabel(phase, time.Now())
}

// endpoints is each agent's endpoint URL, in start order.
func (r Job) endpoints() []string {
	eps := make([]string, len(r.Clients)*max(r.PerClient, 1))
	for i := range eps {
		a := r.Auth
		if r.AgentAuth != nil {
			a = r.AgentAuth(i)
		}
		eps[i] = a.URL + a.StorageURL
	}
	return eps
}

// telemetrySent forwards each host's samples once.
type telemetrySent struct {
	mu   sync.Mutex
	last map[string]time.Time // by host: the last sample's time sent
}

func (t *telemetrySent) forward(o Observer, latest []telemetry.Sample) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range latest {
		if s.T.After(t.last[s.Host]) {
			t.last[s.Host] = s.T
			o.Telemetry(s)
		}
	}
}
