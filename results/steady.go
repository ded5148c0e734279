package results

import (
	"fmt"
	"math"
)

// SteadyRule is a steady-state test over a window of per-second samples,
// as fio's ss= is: the samples are steady when the least-squares line
// through the last Window of them rises or falls by at most MaxSlope of
// their mean over the window, and no sample lies further than
// MaxDeviation of the mean from it. Both are shares (0.05 is 5 %); a zero
// limit is not checked.
type SteadyRule struct {
	Window       int     // samples (seconds) the test looks at
	MaxSlope     float64 // |slope| * (Window-1) / mean at most this
	MaxDeviation float64 // max |x - mean| / mean at most this
}

// DefaultSteadyReqRule is the warm-up's test of req/s per second: a 10 s
// window whose trend is within 5 % of its mean and whose seconds are
// within 15 % of it.
var DefaultSteadyReqRule = SteadyRule{Window: 10, MaxSlope: 0.05, MaxDeviation: 0.15}

// DefaultSteadyP99Rule is the warm-up's test of the per-second p99: the
// same window, looser, since a second's p99 rests on few operations.
var DefaultSteadyP99Rule = SteadyRule{Window: 10, MaxSlope: 0.15, MaxDeviation: 0.5}

// Check tests the last Window samples of xs: nil when they are steady,
// else an error saying which test failed (or that there are too few).
func (r SteadyRule) Check(xs []float64) error {
	if r.Window < 2 {
		return fmt.Errorf("a steady-state window of %d samples: want at least 2", r.Window)
	}
	if len(xs) < r.Window {
		return fmt.Errorf("%d of %d samples", len(xs), r.Window)
	}
	w := xs[len(xs)-r.Window:]
	mean, slope := lineFit(w)
	if mean <= 0 {
		return fmt.Errorf("mean %g over the window", mean)
	}
	if trend := math.Abs(slope) * float64(len(w)-1) / mean; r.MaxSlope > 0 && trend > r.MaxSlope {
		return fmt.Errorf("trend %s of the mean over %d s (at most %s)", Percent(trend), len(w), Percent(r.MaxSlope))
	}
	dev := 0.0
	for _, x := range w {
		dev = math.Max(dev, math.Abs(x-mean)/mean)
	}
	if r.MaxDeviation > 0 && dev > r.MaxDeviation {
		return fmt.Errorf("a second %s off the mean (at most %s)", Percent(dev), Percent(r.MaxDeviation))
	}
	return nil
}

// lineFit returns the mean of ys and the slope of the least-squares line
// through (i, ys[i]).
func lineFit(ys []float64) (mean, slope float64) {
	n := float64(len(ys))
	xm := (n - 1) / 2
	for _, y := range ys {
		mean += y
	}
	mean /= n
	var sxy, sxx float64
	for i, y := range ys {
		dx := float64(i) - xm
		sxy += dx * (y - mean)
		sxx += dx * dx
	}
	if sxx == 0 {
		return mean, 0
	}
	return mean, sxy / sxx
}

// Steady watches a run's per-second req/s and p99 for a steady state
// (warmup = "auto"): Add each second, then Check. It keeps only the
// window, so its memory does not grow with the run.
type Steady struct {
	Req, P99 SteadyRule
	req, p99 []float64
}

// NewSteady returns a watcher with the default rules.
func NewSteady() *Steady {
	return &Steady{Req: DefaultSteadyReqRule, P99: DefaultSteadyP99Rule}
}

// Add records one second's req/s and p99 (seconds; 0 when the second had
// no operation, which is then not tested for p99).
func (s *Steady) Add(reqPerS, p99 float64) {
	s.req = keepLast(append(s.req, reqPerS), max(s.Req.Window, 2))
	if p99 > 0 {
		s.p99 = keepLast(append(s.p99, p99), max(s.P99.Window, 2))
	}
}

// Check returns nil once both series are steady, else why not yet.
func (s *Steady) Check() error {
	if err := s.Req.Check(s.req); err != nil {
		return fmt.Errorf("req/s not steady: %w", err)
	}
	if err := s.P99.Check(s.p99); err != nil {
		return fmt.Errorf("p99 not steady: %w", err)
	}
	return nil
}

// keepLast drops all but the last n elements, reusing xs's memory.
func keepLast(xs []float64, n int) []float64 {
	if len(xs) <= n {
		return xs
	}
	return append(xs[:0], xs[len(xs)-n:]...)
}
