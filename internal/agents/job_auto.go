package agents

import (
	"time"

	"benchbed/load"
	"benchbed/plan"
	"benchbed/plan/slo"
	"benchbed/results"
)

// SteadyWarmup makes the agents' warm-up ar of warmup = "auto" stop once
// the merged req/s and p99 per second are steady (results.Steady); the
// returned function says why it ended: "steady after 14s" or "not steady
// after 2m: ...".
func SteadyWarmup(ar *Job) func() string {
	st, so, started := results.NewSteady(), load.NewStopOnce(), time.Now()
	max := ar.Duration
	ar.Stop = so.C()
	ar.Second = func(req, p99 float64) {
		st.Add(req, p99)
		if st.Check() == nil {
			so.Stop("steady after " + slo.ShortDuration(time.Since(started).Round(time.Second)))
		}
	}
	return func() string {
		if r := so.Why(); r != "" {
			return r
		}
		return "not steady after " + slo.ShortDuration(max) + ": " + st.Check().Error()
	}
}

// PreciseRun makes the agents' run ar of a duration = "auto" workload
// last at most its max and stop once the batch-means confidence interval
// of the merged per-second req/s is within its precision
// (results.Precision); the returned function says why it ended
// (results.Cell.Stopped). Other workloads' runs are left as they are and
// get a function saying "".
func PreciseRun(w *plan.Workload, ar *Job) func() string {
	if w.AutoDuration == nil {
		return func() string { return "" }
	}
	a := w.AutoDuration
	p, so := &results.Precision{Target: a.Precision, Max: a.Max}, load.NewStopOnce()
	ar.Duration, ar.Ops, ar.Stop = a.Max, 0, so.C()
	ar.Second = func(req, _ float64) {
		p.Add(req)
		if done, why := p.Done(); done {
			so.Stop(why)
		}
	}
	return func() string {
		if r := so.Why(); r != "" {
			return r
		}
		return "max " + slo.ShortDuration(a.Max) + " reached"
	}
}
