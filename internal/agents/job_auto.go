package agents

import (
	"sync"
	"time"

	"benchbed/plan"
	"benchbed/plan/slo"
	"benchbed/results"
)

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

// SteadyWarmup makes the agents' warm-up ar of warmup = "auto" stop once
// the merged req/s and p99 per second are steady (results.Steady); the
// returned function says why it ended: "steady after 14s" or "not steady
// after 2m: ...".
func SteadyWarmup(ar *Job) func() string {
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
