package results

import "math"

// Spread describes one figure over the repeats of a cell: the mean, the
// sample standard deviation (0 for one value), the extremes and the
// coefficient of variation (stddev/mean, 0 when the mean is 0).
type Spread struct {
	Mean   float64 `json:"mean"`
	StdDev float64 `json:"stddev"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	CV     float64 `json:"cv"`
}

// NewSpread computes the Spread of xs; all zero for none.
func NewSpread(xs []float64) Spread {
	if len(xs) == 0 {
		return Spread{}
	}
	s := Spread{Min: math.Inf(1), Max: math.Inf(-1)}
	var sum float64
	for _, x := range xs {
		sum += x
		s.Min, s.Max = min(s.Min, x), max(s.Max, x)
	}
	s.Mean = sum / float64(len(xs))
	if len(xs) > 1 {
		var ss float64
		for _, x := range xs {
			ss += (x - s.Mean) * (x - s.Mean)
		}
		s.StdDev = math.Sqrt(ss / float64(len(xs)-1))
	}
	if s.Mean != 0 {
		s.CV = s.StdDev / s.Mean
	}
	return s
}

// Groups splits cells into their (variant, workload) pairs, the cells that
// differ only by their repeat: indexes into cells, one group per pair in
// the order each pair first appears, cells in their order within it.
func Groups(cells []Cell) [][]int {
	at := map[[2]string]int{}
	var out [][]int
	for i, c := range cells {
		k := [2]string{c.Variant, c.Workload}
		g, ok := at[k]
		if !ok {
			g = len(out)
			at[k] = g
			out = append(out, nil)
		}
		out[g] = append(out[g], i)
	}
	return out
}
