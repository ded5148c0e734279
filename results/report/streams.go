package report

import (
	"math"

	"benchbed/results"
)

// CellRecording merges the agents' streams of cell c into one recording
// (rundir's ReadStreams: rundir.ErrNoStreams when there are none).
func (r *Report) CellRecording(c results.Cell) (results.Recording, error) {
	return r.Run.ReadStreams(&c)
}

// SpectrumPoint is one point of a latency percentile spectrum: the
// quantile Q and the latency there, in seconds.
type SpectrumPoint struct {
	Q       float64
	Seconds float64
}

// spectrumSteps is the number of points per decade of 1/(1-q).
const spectrumSteps = 10

// maxInverse bounds 1/(1-q): the 99.9999th percentile.
const maxInverse = 1e6

// FirstByteSpectrum returns the first-byte latency of every operation
// type of rec at quantiles spread evenly on a log scale of 1/(1-q), from
// the median up to the point where one value in the histogram remains
// (beyond, every quantile is the maximum), and the maximum itself.
// It returns nothing for an empty recording.
func FirstByteSpectrum(rec results.Recording) []SpectrumPoint {
	h := results.NewHist()
	for _, op := range rec {
		h.Merge(op.FirstByte)
	}
	n := h.Count()
	if n == 0 {
		return nil
	}
	top := min(float64(n), maxInverse)
	var out []SpectrumPoint
	for k := spectrumSteps * math.Log10(2); ; k++ {
		inv := math.Pow(10, k/spectrumSteps)
		if inv > top {
			break
		}
		q := 1 - 1/inv
		out = append(out, SpectrumPoint{Q: q, Seconds: h.Quantile(q).Seconds()})
	}
	q := 1 - 1/top
	if len(out) == 0 || out[len(out)-1].Q < q {
		out = append(out, SpectrumPoint{Q: q, Seconds: h.Quantile(1).Seconds()})
	}
	return out
}
