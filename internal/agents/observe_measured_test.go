package agents

import (
	"math"
	"testing"
	"time"

	"benchbed/load"
	"benchbed/plan"
	"benchbed/results"
	"benchbed/results/metrics"
)

// lastPhaseReqPerS is the last benchbed_phase_requests_per_second point
// of op "all" in phase among pts (NaN: none).
func lastPhaseReqPerS(pts []metrics.Point, phase string) float64 {
	v := math.NaN()
	for _, p := range pts {
		if p.Name != metrics.SeriesPhaseReqPerS {
			continue
		}
		var op, ph string
		for _, l := range p.Labels {
			switch l.Name {
			case metrics.LabelOp:
				op = l.Value
			case metrics.LabelPhase:
				ph = l.Value
			}
		}
		if op == "all" && ph == phase {
			v = p.Value
		}
	}
	return v
}

// observedRun tells a real Aggregator, through Observe, a phase of two
// agents whose three intervals last 1 s, 1 s and 0.5 s (2.5 s summed), and
// ends it with a merged result of the same operations that lasted
// measured; it returns the points sent and the merged recording.
func observedRun(t *testing.T, phase string, fault bool, measured time.Duration) ([]metrics.Point, results.Recording) {
	t.Helper()
	var pts []metrics.Point
	agg := metrics.NewAggregator(func(p []metrics.Point) { pts = append(pts, p...) })
	w := &plan.Workload{Name: "w", Clients: []string{"c1", "c2"}}
	c := plan.Cell{ID: "v-w-1", Variant: &plan.Variant{Name: "v"}, Workload: w, Repeat: 1}
	j := Job{Clients: w.Clients, Auth: load.AuthSpec{URL: "http://127.0.0.1:8080/auth/v1.0"}}
	end := Observe(agg, &j, c, "run-1", "tb", phase, fault, nil)
	t0 := time.Unix(1000, 0)
	j.Started(t0)
	total := results.Recording{"read": results.NewOpHists()}
	edges := []time.Duration{0, time.Second, 2 * time.Second, 2500 * time.Millisecond}
	counts := [2][3]int{{10, 12, 5}, {8, 9, 4}}
	for i := range 3 {
		for stream := range 2 {
			h := results.NewOpHists()
			for range counts[stream][i] {
				h.FirstByte.Record(5 * time.Millisecond)
				h.LastByte.Record(10 * time.Millisecond)
			}
			total["read"].Merge(h)
			j.Each(stream, results.AgentEvent{Type: "interval", Index: i, Start: t0.Add(edges[i]), End: t0.Add(edges[i+1]),
				Ops: results.Recording{"read": h}})
		}
	}
	j.Each(0, results.AgentEvent{Type: "done"})
	j.Each(1, results.AgentEvent{Type: "done"})
	end(&results.Merged{Recording: total, Duration: measured})
	return pts, total
}

// TestObserveEndsWithTheSummarysRate: a sweep's measured run and a probe
// end with their "so far" req/s over the duration the agents measured
// (2.6 s, the summary's divisor), not over their intervals' summed 2.5 s:
// the stream's last req/s is the cell's summary.json req/s. A fault
// cell's run and a warm-up keep the intervals' own.
func TestObserveEndsWithTheSummarysRate(t *testing.T) {
	const measured = 2600 * time.Millisecond
	for _, phase := range []string{PhaseRun, PhaseProbe} {
		pts, rec := observedRun(t, phase, false, measured)
		want := results.Summarise(rec, measured).Total.ReqPerS
		if got := lastPhaseReqPerS(pts, phase); math.Abs(got-want) > 1e-9 {
			t.Errorf("%s: the last req/s is %g, the summary's %g (48 requests over 2.6 s; over the intervals' 2.5 s: %g)",
				phase, got, want, 48/2.5)
		}
	}
	for _, c := range []struct {
		phase string
		fault bool
	}{{PhaseWarmup, false}, {PhaseRun, true}} {
		pts, _ := observedRun(t, c.phase, c.fault, measured)
		ph := c.phase
		if c.fault {
			ph = metrics.PhaseFaultBefore
		}
		if got := lastPhaseReqPerS(pts, ph); math.Abs(got-48/2.5) > 1e-9 {
			t.Errorf("%s (fault %v): the last req/s is %g, want 48 over the intervals' 2.5 s", c.phase, c.fault, got)
		}
	}
}
