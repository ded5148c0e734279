package results

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// noisy returns n samples around level with uniform noise of ±spread
// (a share of level) plus a linear trend of trend*level over the n.
func noisy(seed uint64, n int, level, spread, trend float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = level * (1 + trend*float64(i)/float64(n-1) + spread*(2*rng.Float64()-1))
	}
	return xs
}

func TestSteadyRule(t *testing.T) {
	r := SteadyRule{Window: 10, MaxSlope: 0.05, MaxDeviation: 0.15}
	cases := []struct {
		name string
		xs   []float64
		want string // "" steady, else a part of the error
	}{
		{"flat with noise", noisy(1, 10, 1000, 0.05, 0), ""},
		{"ramp", noisy(2, 10, 1000, 0.01, 0.3), "trend"},
		{"one outlier", outlier(noisy(3, 10, 1000, 0.01, 0), 4, 1500), "off the mean"},
		{"too few", noisy(4, 5, 1000, 0, 0), "5 of 10 samples"},
		{"idle", make([]float64, 10), "mean 0"},
		{"ramp then flat: the window is the last seconds", append(noisy(5, 20, 100, 0, 5), noisy(6, 10, 1000, 0.02, 0)...), ""},
	}
	for _, c := range cases {
		err := r.Check(c.xs)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want steady", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}

func TestSteadyWatchesBothSeries(t *testing.T) {
	s := NewSteady()
	for i := range 30 { // req/s flat, p99 still falling
		s.Add(1000, 0.5-0.015*float64(i))
	}
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "p99 not steady") {
		t.Fatalf("falling p99: %v, want p99 not steady", err)
	}
	for range 10 {
		s.Add(1000, 0.02)
	}
	if err := s.Check(); err != nil {
		t.Fatalf("both flat: %v", err)
	}
	if len(s.req) > s.Req.Window || len(s.p99) > s.P99.Window {
		t.Errorf("kept %d and %d samples, want at most the windows", len(s.req), len(s.p99))
	}
	s.Add(3000, 0.02)
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "req/s not steady") {
		t.Errorf("a jump in req/s: %v", err)
	}
}

// outlier sets xs[i] to x.
func outlier(xs []float64, i int, x float64) []float64 {
	xs[i] = x
	return xs
}
