package results

import (
	"math"
	"slices"
)

// pairedDiffs returns b's value minus a's of each round, in round order,
// when both sides have values of the same two or more rounds, each once
// (interleaved repeats); false otherwise.
func pairedDiffs(a, b Samples) ([]float64, bool) {
	if a.Kind != EvidenceRepeats || len(a.Rounds) != len(a.Values) || len(b.Rounds) != len(b.Values) || len(a.Rounds) < 2 {
		return nil, false
	}
	ra, rb := slices.Sorted(slices.Values(a.Rounds)), slices.Sorted(slices.Values(b.Rounds))
	if !slices.Equal(ra, rb) || len(slices.Compact(slices.Clone(ra))) != len(ra) {
		return nil, false
	}
	out := make([]float64, 0, len(ra))
	for _, r := range ra {
		out = append(out, b.Values[slices.Index(b.Rounds, r)]-a.Values[slices.Index(a.Rounds, r)])
	}
	return out, true
}

// pairedRelative returns the 95 % t interval (n-1 degrees of freedom) of
// the mean of the rounds' differences d, in percent of base: what drifts
// from round to round (the lab's load, its page cache) is in both values
// of a round and cancels. Identical differences give a point.
func pairedRelative(d []float64, base float64) (lo, hi float64) {
	m, sd := meanSD(d)
	half := tQuantile975(len(d)-1) * sd / math.Sqrt(float64(len(d)))
	return (m - half) / base * 100, (m + half) / base * 100
}
