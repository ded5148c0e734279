package load

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"syscall"
	"time"

	"benchbed/plan/slo"
	"benchbed/results"
)

// IntervalRates adapts fn to Config.OnInterval: it is told each
// interval's successful operations per second and the first-byte p99 of
// all its operations (seconds; 0 when none succeeded). It keeps one
// histogram, reused, so its memory does not grow with the run.
func IntervalRates(fn func(reqPerS, p99 float64)) func(start, end time.Time, r results.Recording, fill results.FillRecording) {
	all := results.NewHist()
	return func(start, end time.Time, r results.Recording, _ results.FillRecording) {
		all.Reset()
		for _, h := range r {
			all.Merge(h.FirstByte)
		}
		d := end.Sub(start).Seconds()
		if d <= 0 {
			return
		}
		var p99 float64
		if all.Count() > 0 {
			p99 = all.Quantile(0.99).Seconds()
		}
		fn(float64(all.Count())/d, p99)
	}
}

// onInterval is Config.OnInterval's type.
type onInterval = func(start, end time.Time, r results.Recording, fill results.FillRecording)

// alsoTell returns an OnInterval that tells first (when not nil: the
// caller's, such as a metrics stream) and then next.
func alsoTell(first, next onInterval) onInterval {
	if first == nil {
		return next
	}
	return func(start, end time.Time, r results.Recording, fill results.FillRecording) {
		first(start, end, r, fill)
		next(start, end, r, fill)
	}
}

// stopWhen is a Stop channel closed once, with the reason why.
type stopWhen struct {
	once   sync.Once
	stop   chan struct{}
	mu     sync.Mutex
	reason string
}

func (s *stopWhen) close(reason string) {
	s.once.Do(func() {
		s.mu.Lock()
		s.reason = reason
		s.mu.Unlock()
		close(s.stop)
	})
}

func (s *stopWhen) why() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reason
}

// Warmup runs cfg unmeasured until its per-second req/s and p99 are
// steady (results.Steady's default rules) or max has passed, and says
// which: "steady after 14s" or "not steady after 2m: req/s not steady: ...".
func Warmup(ctx context.Context, cfg Config, max time.Duration) (string, error) {
	st := results.NewSteady()
	w := &stopWhen{stop: make(chan struct{})}
	started := time.Now()
	cfg.Duration, cfg.Operations, cfg.Stop = max, 0, w.stop
	cfg.OnInterval = alsoTell(cfg.OnInterval, IntervalRates(func(req, p99 float64) {
		st.Add(req, p99)
		if st.Check() == nil {
			w.close("steady after " + slo.ShortDuration(time.Since(started).Round(time.Second)))
		}
	}))
	if _, err := Run(ctx, cfg); err != nil {
		return "", err
	}
	if r := w.why(); r != "" {
		return r, nil
	}
	return fmt.Sprintf("not steady after %s: %v", slo.ShortDuration(max), st.Check()), nil
}

// RunPrecise runs cfg (duration = "auto") until the batch-means
// confidence interval of its per-second req/s is within precision (a
// share) of the mean, or max has passed, and says which:
// "precision 1.8% reached" or "max 1h reached".
func RunPrecise(ctx context.Context, cfg Config, precision float64, max time.Duration) (*Result, string, error) {
	p := &results.Precision{Target: precision, Max: max, Interval: cfg.interval()}
	w := &stopWhen{stop: make(chan struct{})}
	cfg.Duration, cfg.Operations, cfg.Stop = max, 0, w.stop
	cfg.OnInterval = alsoTell(cfg.OnInterval, IntervalRates(func(req, _ float64) {
		p.Add(req)
		if done, why := p.Done(); done {
			w.close(why)
		}
	}))
	res, err := Run(ctx, cfg)
	why := w.why()
	if why == "" {
		why = "max " + slo.ShortDuration(max) + " reached"
	}
	return res, why, err
}

// interval is the recording interval (Config.Interval, 1 s by default).
func (c *Config) interval() time.Duration {
	if c.Interval > 0 {
		return c.Interval
	}
	return time.Second
}

// ProcessCPU returns the CPU time this process has used (user and
// system), for a load generator's own load.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// CPUShare is the share of the cores this process may use (GOMAXPROCS)
// that cpu of CPU time over wall time is, at most 1.
func CPUShare(cpu, wall time.Duration) float64 {
	if wall <= 0 {
		return 0
	}
	return min(1, cpu.Seconds()/wall.Seconds()/float64(runtime.GOMAXPROCS(0)))
}
