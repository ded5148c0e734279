package scenario

import "math"

// Popularity is benchbed's extension of a scenario (ssbench ignores it):
// how reads, heads, updates and deletes choose among a class's objects.
type Popularity struct {
	// Zipf is the exponent s of a Zipf law over the objects: the r-th most
	// popular is drawn in proportion to r^-s (0: uniform, ssbench's way).
	Zipf float64 `json:"zipf"`
}

// ZipfRank maps u in [0, 1) to a rank from 0 to n-1 drawn by a Zipf law of
// exponent s over n items, by inverting the continuous law's distribution
// (a bounded power law over [1, n+1)): O(1) time and no table, whatever
// n, so that memory does not grow with the objects. s <= 0 is uniform.
func ZipfRank(u float64, n int64, s float64) int64 {
	if n <= 1 {
		return 0
	}
	top := float64(n + 1)
	var x float64
	switch {
	case s <= 0:
		return min(int64(u*float64(n)), n-1)
	case math.Abs(s-1) < 1e-9:
		x = math.Pow(top, u)
	default:
		a := 1 - s
		x = math.Pow(1+u*(math.Pow(top, a)-1), 1/a)
	}
	return min(max(int64(x)-1, 0), n-1)
}

// MaxZipf bounds a popularity's exponent: past it, one object takes
// every read.
const MaxZipf = 10

// MaxRateIntervals bounds a rate profile's intervals.
const MaxRateIntervals = 100000

// validateExtensions checks popularity, rate_profile and head_share.
func (s *Scenario) validateExtensions(bad func([]any, string, ...any)) {
	if p := s.Popularity; p != nil && (p.Zipf < 0 || p.Zipf > MaxZipf || math.IsNaN(p.Zipf)) {
		bad([]any{"popularity", "zipf"}, "popularity.zipf must be from 0 to %d, got %v", MaxZipf, p.Zipf)
	}
	if s.HeadShare < 0 || s.HeadShare >= 1 {
		bad([]any{"head_share"}, "head_share must be from 0 to below 1, got %v", s.HeadShare)
	}
	if r := s.RateProfile; r != nil {
		if err := r.check(); err != nil {
			bad([]any{"rate_profile"}, "rate_profile: %v", err)
		}
	}
}
