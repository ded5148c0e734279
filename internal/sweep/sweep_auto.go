package sweep

import (
	"sync"
	"time"

	"benchbed/internal/agents"
	"benchbed/plan"
	"benchbed/plan/slo"
	"benchbed/results"
)

// warmupOf is the warm-up of a cell of w: the workload's own (fixed, or
// "auto" at most its max) or the sweep's (as schedule's plan says).
func (s *Sweeper) warmupOf(w *plan.Workload) time.Duration {
	switch {
	case w.Warmup == nil:
		return s.tb.Sweep.Warmup
	case w.Warmup.Auto:
		return w.Warmup.Max
	}
	return w.Warmup.Duration
}

// stopOnce is a job's Stop channel closed once, with the reason why.
type stopOnce struct {
	once   sync.Once
	ch     chan struct{}
	mu     sync.Mutex
	reason string
}

func newStopOnce() *stopOnce { return &stopOnce{ch: make(chan struct{})} }

func (s *stopOnce) stop(reason string) {
	s.once.Do(func() {
		s.mu.Lock()
		s.reason = reason
		s.mu.Unlock()
		close(s.ch)
	})
}

func (s *stopOnce) why() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reason
}

// steadyWarmup makes the agents' warm-up ar of warmup = "auto" stop once
// the merged req/s and p99 per second are steady (results.Steady); the
// returned function says why it ended: "steady after 14s" or "not steady
// after 2m: ...".
func steadyWarmup(ar *agents.Job) func() string {
	st, so, started := results.NewSteady(), newStopOnce(), time.Now()
	max := ar.Duration
	ar.Stop = so.ch
	ar.Second = func(req, p99 float64) {
		st.Add(req, p99)
		if st.Check() == nil {
			so.stop("steady after " + slo.ShortDuration(time.Since(started).Round(time.Second)))
		}
	}
	return func() string {
		if r := so.why(); r != "" {
			return r
		}
		return "not steady after " + slo.ShortDuration(max) + ": " + st.Check().Error()
	}
}

// preciseRun makes the agents' run ar of a duration = "auto" workload
// last at most its max and stop once the batch-means confidence interval
// of the merged per-second req/s is within its precision
// (results.Precision); the returned function says why it ended
// (results.Cell.Stopped). Other workloads' runs are left as they are and
// get a function saying "".
func preciseRun(w *plan.Workload, ar *agents.Job) func() string {
	if w.AutoDuration == nil {
		return func() string { return "" }
	}
	a := w.AutoDuration
	p, so := &results.Precision{Target: a.Precision, Max: a.Max}, newStopOnce()
	ar.Duration, ar.Ops, ar.Stop = a.Max, 0, so.ch
	ar.Second = func(req, _ float64) {
		p.Add(req)
		if done, why := p.Done(); done {
			so.stop(why)
		}
	}
	return func() string {
		if r := so.why(); r != "" {
			return r
		}
		return "max " + slo.ShortDuration(a.Max) + " reached"
	}
}

// warmReason is why the cell's warmup = "auto" ended ("" for others).
func (t *cellTelemetry) warmReason() string {
	if t == nil {
		return ""
	}
	return t.warmedUp
}
