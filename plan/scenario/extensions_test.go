package scenario

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestZipfRank(t *testing.T) {
	const n = 1000
	for _, s := range []float64{0, 0.5, 1, 1.5} {
		counts := make([]float64, n)
		for i := range 100000 {
			r := ZipfRank((float64(i)+0.5)/100000, n, s)
			if r < 0 || r >= n {
				t.Fatalf("s=%v: rank %d out of [0, %d)", s, r, n)
			}
			counts[r]++
		}
		// The law: counts[9]/counts[99] ~ (10/100)^-s, the continuous
		// approximation's error small at these ranks.
		want := math.Pow(10, s)
		if got := counts[9] / counts[99]; math.Abs(got-want) > 0.15*want {
			t.Errorf("s=%v: rank 10 / rank 100 = %v, want about %v", s, got, want)
		}
	}
	if ZipfRank(0.999999, 1, 1) != 0 || ZipfRank(0.999999, 5, 3) != 4 {
		t.Error("edges")
	}
}

func TestSchedule(t *testing.T) {
	p := &RateProfile{Interval: 2, Rates: []float64{10, 0, 5}}
	s := p.Schedule()
	for k, want := range map[int64]time.Duration{0: 0, 19: 1900 * time.Millisecond, 20: 4 * time.Second, 29: 5800 * time.Millisecond} {
		if got, ok := s.At(k); !ok || (got-want).Abs() > time.Microsecond {
			t.Errorf("At(%d) = %v %v, want %v", k, got, ok, want)
		}
	}
	if _, ok := s.At(30); ok || p.Length() != 6*time.Second {
		t.Errorf("past the end: ok %v; length %v", ok, p.Length())
	}
}

func TestExtensionsRefused(t *testing.T) {
	base := `{"name": "x", "sizes": [{"name": "a", "size_min": 1, "size_max": 1}], "initial_files": {"a": 1},
	  "crud_profile": [0, 1, 0, 0], "run_seconds": 1, `
	for extra, want := range map[string]string{
		`"popularity": {"zipf": -1}`:                     "popularity.zipf must be from 0 to 10",
		`"head_share": 1`:                                "head_share must be from 0 to below 1",
		`"rate_profile": {"interval": 0, "rates": [1]}`:  "interval must be > 0",
		`"rate_profile": {"interval": 1, "rates": [0]}`:  "every rate is 0",
		`"rate_profile": {"interval": 1, "rates": [-1]}`: "rates[0] = -1",
		`"rate_profile": {"interval": 1, "rates": []}`:   "rates must have 1 to",
		`"popularity": {"zipf": 1, "s": 2}`:              `unknown field "s"`,
	} {
		_, err := Parse([]byte(base + extra + "}"))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", extra, err, want)
		}
	}
	if s, err := Parse([]byte(base + `"popularity": {"zipf": 1}, "head_share": 0.2, "rate_profile": {"interval": 1, "rates": [3, 0]}}`)); err != nil || !s.ReadsInitial() {
		t.Errorf("accepted extensions: %v", err)
	}
}
