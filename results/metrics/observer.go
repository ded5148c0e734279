package metrics

import (
	"time"

	"benchbed/results"
	"benchbed/results/telemetry"
)

// Observer is what a sweep tells the metrics stream: each phase as its
// agents start (with stream i's endpoint), a phase change within one run
// (a fault's window), every agent event as it is merged, the hosts'
// telemetry samples, the duration a measured phase's summary divides by
// once its agents returned (Aggregator.Measured), and the end of a phase.
// Its methods must not block: the Aggregator's hand their points to a
// bounded queue.
type Observer interface {
	Phase(s State, endpoints []string, at time.Time)
	Relabel(phase string, at time.Time)
	Event(stream int, ev results.AgentEvent)
	Telemetry(s telemetry.Sample)
	Measured(d time.Duration, at time.Time)
	End(at time.Time)
}

var _ Observer = (*Aggregator)(nil)

// Relabel changes the phase within the current run (a fault applied or
// undone): the streams go on, the phase's figures so far start again.
// Once the run has ended (idle) it changes nothing: a fault undone after
// the run is no phase of it.
func (a *Aggregator) Relabel(phase string, at time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.state.Phase == PhaseIdle || a.state.Phase == "" {
		return
	}
	a.relabel(phase, at)
}

// relabel is Relabel under the lock.
func (a *Aggregator) relabel(phase string, at time.Time) {
	a.state.Phase = phase
	a.base = a.state.labels()
	a.resetSofar()
	a.send(a.statePoints(at))
}
