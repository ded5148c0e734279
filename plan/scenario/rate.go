package scenario

import (
	"errors"
	"fmt"
	"sort"
	"time"
)

// RateProfile is an open-loop rate that changes over time: Rates[i]
// operations a second for the i-th Interval seconds. A run follows it
// from its start to its end (the profile's length is the run's length
// unless the run is given one).
type RateProfile struct {
	Interval float64   `json:"interval"` // seconds
	Rates    []float64 `json:"rates"`    // operations a second
}

// check refuses an unusable profile.
func (r *RateProfile) check() error {
	switch {
	case r.Interval <= 0:
		return fmt.Errorf("interval must be > 0 seconds, got %v", r.Interval)
	case len(r.Rates) == 0 || len(r.Rates) > MaxRateIntervals:
		return fmt.Errorf("rates must have 1 to %d intervals, got %d", MaxRateIntervals, len(r.Rates))
	}
	total := 0.0
	for i, x := range r.Rates {
		if x < 0 {
			return fmt.Errorf("rates[%d] = %v: must be >= 0", i, x)
		}
		total += x
	}
	if total == 0 {
		return errors.New("every rate is 0")
	}
	return nil
}

// Length is the profile's length.
func (r *RateProfile) Length() time.Duration {
	return time.Duration(r.Interval * float64(len(r.Rates)) * float64(time.Second))
}

// Schedule is a profile's operations in time: the k-th operation's start.
type Schedule struct {
	p   *RateProfile
	cum []float64 // operations before each interval
}

// Schedule returns the profile's schedule.
func (r *RateProfile) Schedule() *Schedule {
	s := &Schedule{p: r, cum: make([]float64, len(r.Rates)+1)}
	for i, x := range r.Rates {
		s.cum[i+1] = s.cum[i] + x*r.Interval
	}
	return s
}

// At is when the k-th operation (from 0) starts, from the run's start;
// false past the profile's end.
func (s *Schedule) At(k int64) (time.Duration, bool) {
	x := float64(k)
	i := sort.SearchFloat64s(s.cum, x+1e-9) - 1 // the interval holding operation k
	if i < 0 {
		i = 0
	}
	for i < len(s.p.Rates) && (s.p.Rates[i] == 0 || s.cum[i+1] <= x) {
		i++
	}
	if i >= len(s.p.Rates) {
		return 0, false
	}
	sec := float64(i)*s.p.Interval + (x-s.cum[i])/s.p.Rates[i]
	return time.Duration(sec * float64(time.Second)), true
}
