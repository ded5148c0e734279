package sweep

import (
	"slices"
	"testing"
	"time"

	"benchbed/internal/agents"
	"benchbed/load"
	"benchbed/plan"
	"benchbed/results"
	"benchbed/results/metrics"
	"benchbed/results/telemetry"
)

// recObserver records what the sweep tells it.
type recObserver struct {
	states []metrics.State
	eps    [][]string
	phases []string // every phase told, Relabel's and End's included
	events int
}

func (o *recObserver) Phase(s metrics.State, eps []string, _ time.Time) {
	o.states, o.eps, o.phases = append(o.states, s), append(o.eps, eps), append(o.phases, s.Phase)
}
func (o *recObserver) Relabel(p string, _ time.Time) { o.phases = append(o.phases, p) }
func (o *recObserver) Event(int, results.AgentEvent) { o.events++ }
func (o *recObserver) Telemetry(telemetry.Sample)    {}
func (o *recObserver) End(time.Time)                 { o.phases = append(o.phases, metrics.PhaseIdle) }

func TestObserverIsToldPhasesAndEvents(t *testing.T) {
	s := bareSweeper(t)
	o := &recObserver{}
	s.opts.Observer = o
	w := &plan.Workload{Name: "w", Clients: []string{"c1", "c2"}}
	ex := &cellRun{s: s, c: plan.Cell{ID: "v-w-1", Variant: &plan.Variant{Name: "v"}, Workload: w, Repeat: 1}}
	started := false
	job := agents.Job{Clients: w.Clients, Rate: 40, Auth: load.AuthSpec{URL: "http://u:k3y@p1/auth/v1.0"},
		Started: func(time.Time) { started = true }}
	for _, phase := range []string{metrics.PhaseWarmup, metrics.PhaseProbe} {
		j := ex.observe(job, phase)
		j.Started(time.Now())
		j.Each(1, results.AgentEvent{Type: "interval"})
		s.endObserved()
	}
	ex.faults = &faultCell{}
	j := ex.observe(job, metrics.PhaseRun)
	j.Started(time.Now())
	s.faultPhase(true)
	s.faultPhase(false)
	s.endObserved()
	want := []string{"warmup", "idle", "probe", "idle", "fault_before", "fault_during", "fault_after", "idle"}
	if !slices.Equal(o.phases, want) || !started || o.events != 2 {
		t.Fatalf("phases %v (want %v), the job's own Started called %v, events %d", o.phases, want, started, o.events)
	}
	st := o.states[1]
	if st.Run != s.run.ID || st.Testbed != "tb" || st.Variant != "v" || st.Workload != "w" || st.Cell != "v-w-1" ||
		st.Repeat != 1 || st.Rate != 40 {
		t.Errorf("state %+v", st)
	}
	if len(o.eps[0]) != 2 || o.eps[0][0] != "http://u:k3y@p1/auth/v1.0" {
		t.Errorf("endpoints %v: one an agent, the aggregator strips their user info", o.eps[0])
	}
}
