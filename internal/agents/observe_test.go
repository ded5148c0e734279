package agents

import (
	"slices"
	"testing"
	"time"

	"benchbed/load"
	"benchbed/plan"
	"benchbed/results"
	"benchbed/results/metrics"
	"benchbed/results/telemetry"
)

// recObserver records what a sweep tells it.
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
func (o *recObserver) Measured(d time.Duration, _ time.Time) {
	o.phases = append(o.phases, "measured "+d.String())
}

func TestObserveTellsPhasesAndEvents(t *testing.T) {
	o := &recObserver{}
	w := &plan.Workload{Name: "w", Clients: []string{"c1", "c2"}}
	c := plan.Cell{ID: "v-w-1", Variant: &plan.Variant{Name: "v"}, Workload: w, Repeat: 1}
	started := 0
	job := Job{Clients: w.Clients, Rate: 40, Auth: load.AuthSpec{URL: "http://u:k3y@p1/auth/v1.0"},
		Started: func(time.Time) { started++ }}
	for _, phase := range []string{PhaseWarmup, PhaseProbe} {
		j := job
		end := Observe(o, &j, c, "run-1", "tb", phase, false, nil)
		j.Started(time.Now())
		j.each(2)(1, results.AgentEvent{Type: "interval"})
		end(&results.Merged{Duration: 3 * time.Second})
	}
	j := job
	end := Observe(o, &j, c, "run-1", "tb", PhaseRun, true, nil)
	j.Started(time.Now())
	FaultPhase(o, true)
	FaultPhase(o, false)
	end(&results.Merged{Duration: 3 * time.Second})
	want := []string{"warmup", "idle", "probe", "measured 3s", "idle", "fault_before", "fault_during", "fault_after", "idle"}
	if !slices.Equal(o.phases, want) || started != 3 || o.events != 2 {
		t.Fatalf("phases %v (want %v), the job's own Started called %d times, events %d", o.phases, want, started, o.events)
	}
	st := o.states[1]
	if st != (metrics.State{Run: "run-1", Testbed: "tb", Variant: "v", Workload: "w", Cell: "v-w-1", Repeat: 1, Phase: "probe", Rate: 40}) {
		t.Errorf("state %+v", st)
	}
	if len(o.eps[0]) != 2 || o.eps[0][1] != "http://u:k3y@p1/auth/v1.0" {
		t.Errorf("endpoints %v: one an agent (the aggregator strips their user info)", o.eps[0])
	}
	FaultPhase(nil, true) // no observer: nothing
	if end := Observe(nil, &j, c, "", "", PhaseRun, false, nil); end == nil {
		t.Error("no end func without an observer")
	}
}
