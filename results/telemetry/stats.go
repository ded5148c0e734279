package telemetry

import (
	"math"
	"slices"
)

// series collects one quantity over a phase's samples.
type series []float64

// stat returns the mean, 95th percentile (nearest rank) and maximum,
// rounded to 0.1; zeros for no values.
func (s series) stat() Stat {
	if len(s) == 0 {
		return Stat{}
	}
	sorted := slices.Sorted(slices.Values(s))
	rank := int(math.Ceil(0.95*float64(len(sorted)))) - 1
	return Stat{Mean: round(s.mean(), 1), P95: round(sorted[max(0, rank)], 1), Max: round(sorted[len(sorted)-1], 1)}
}

// meanMax returns the mean and maximum, rounded to 0.1.
func (s series) meanMax() MeanMax {
	st := s.stat()
	return MeanMax{Mean: st.Mean, Max: st.Max}
}

func (s series) mean() float64 {
	if len(s) == 0 {
		return 0
	}
	var sum float64
	for _, v := range s {
		sum += v
	}
	return sum / float64(len(s))
}
