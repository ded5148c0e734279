package results

import (
	"fmt"
	"math"
	"time"

	"benchbed/plan/slo"
)

// Batch means: per-second req/s are autocorrelated (a slow second is
// followed by a slow one), so their standard error understates the
// mean's. The series is cut into batches of b seconds, b doubled until
// the batch means' lag-1 autocorrelation is small; those near-independent
// means give a Student's t confidence interval of the mean.

// MinBatches is the fewest batches a confidence interval is computed from.
const MinBatches = 10

// MaxBatchCorrelation is the lag-1 autocorrelation of batch means under
// which they count as near-independent; with few batches, whose estimate
// is noisy, under what a one-sided 5 % test of no correlation admits
// (1.645/sqrt(batches)) when that is more.
const MaxBatchCorrelation = 0.2

// Interval is a 95 % confidence interval of a series' mean from batch means.
type Interval struct {
	Mean      float64 `json:"mean"`
	HalfWidth float64 `json:"half_width"` // the interval is Mean ± HalfWidth
	Batch     int     `json:"batch"`      // samples a batch
	Batches   int     `json:"batches"`
	Lag1      float64 `json:"lag1"` // the batch means' lag-1 autocorrelation
}

// Relative is the half-width as a share of the mean (+Inf for a mean of 0).
func (iv Interval) Relative() float64 {
	if iv.Mean == 0 {
		return math.Inf(1)
	}
	return iv.HalfWidth / math.Abs(iv.Mean)
}

// BatchMeans returns the confidence interval of xs's mean: the smallest
// batch size (1, 2, 4...) leaving at least MinBatches batches whose
// means' lag-1 autocorrelation is at most MaxBatchCorrelation (or the
// test's bound). The
// oldest samples that do not fill a batch are left out. It fails when no
// batch size qualifies yet (the series is too short for its correlation).
func BatchMeans(xs []float64) (Interval, error) { return batchMeansOf(xs, MinBatches) }

// batchMeansOf is BatchMeans with at least minBatches batches.
func batchMeansOf(xs []float64, minBatches int) (Interval, error) {
	for b := 1; len(xs)/b >= minBatches; b *= 2 {
		k := len(xs) / b
		means := batchMeans(xs[len(xs)-k*b:], b)
		r1 := lag1(means)
		if r1 > max(MaxBatchCorrelation, 1.645/math.Sqrt(float64(k))) {
			continue
		}
		m, sd := meanSD(means)
		return Interval{Mean: m, HalfWidth: tQuantile975(k-1) * sd / math.Sqrt(float64(k)),
			Batch: b, Batches: k, Lag1: r1}, nil
	}
	return Interval{}, fmt.Errorf("%d samples are too few for %d near-independent batch means", len(xs), minBatches)
}

func batchMeans(xs []float64, b int) []float64 {
	out := make([]float64, len(xs)/b)
	for i := range out {
		for _, x := range xs[i*b : (i+1)*b] {
			out[i] += x
		}
		out[i] /= float64(b)
	}
	return out
}

// lag1 is the lag-1 autocorrelation of xs (0 when they do not vary).
func lag1(xs []float64) float64 {
	m, _ := meanSD(xs)
	var num, den float64
	for i, x := range xs {
		den += (x - m) * (x - m)
		if i > 0 {
			num += (x - m) * (xs[i-1] - m)
		}
	}
	if den == 0 {
		return 0
	}
	return num / den
}

// MeanSD returns the mean and the sample standard deviation of xs.
func MeanSD(xs []float64) (float64, float64) { return meanSD(xs) }

// StudentT975 is Student's t 0.975 quantile with df degrees of freedom.
func StudentT975(df int) float64 { return tQuantile975(df) }

// meanSD returns the mean and the sample standard deviation.
func meanSD(xs []float64) (float64, float64) {
	var m float64
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	if len(xs) < 2 {
		return m, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return m, math.Sqrt(ss / float64(len(xs)-1))
}

// t975 holds Student's t 0.975 quantile for 1 to 30 degrees of freedom.
var t975 = [...]float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}

// tQuantile975 is Student's t 0.975 quantile with df degrees of freedom
// (tabled to 30, then 1.96 + 2.4/df, within 0.005 of the true value).
func tQuantile975(df int) float64 {
	switch {
	case df < 1:
		return math.Inf(1)
	case df <= len(t975):
		return t975[df-1]
	}
	return 1.96 + 2.4/float64(df)
}

// Precision ends a run (duration = "auto") once the confidence interval
// of its per-second req/s is within Target of the mean, or at Max. Add
// each interval, then Done.
type Precision struct {
	Target   float64       // half-width as a share of the mean: 0.02 is 2 %
	Max      time.Duration // after which the run ends anyway (0: never)
	Interval time.Duration // of the samples (0: 1 s)
	xs       []float64
}

// Add records one interval's req/s.
func (p *Precision) Add(reqPerS float64) { p.xs = append(p.xs, reqPerS) }

// Done says whether the run may end, and why: "precision 1.8% reached"
// or "max 1h0m0s reached"; "" while it goes on.
func (p *Precision) Done() (bool, string) {
	if iv, err := BatchMeans(p.xs); err == nil && iv.Relative() <= p.Target {
		return true, "precision " + Percent(iv.Relative()) + " reached"
	}
	iv := p.Interval
	if iv <= 0 {
		iv = time.Second
	}
	if p.Max > 0 && time.Duration(len(p.xs))*iv >= p.Max {
		return true, "max " + slo.ShortDuration(p.Max) + " reached"
	}
	return false, ""
}
