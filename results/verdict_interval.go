package results

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
)

// welchRelative returns the 95 % interval of mean(b) - mean(a) by Welch's
// t (unequal variances, Welch-Satterthwaite degrees of freedom, rounded
// down: conservative), in percent of mean(a). Identical constant samples
// give a point.
func welchRelative(a, b []float64) (lo, hi float64) {
	ma, sa := meanSD(a)
	mb, sb := meanSD(b)
	va, vb := sa*sa/float64(len(a)), sb*sb/float64(len(b))
	d := mb - ma
	se := math.Sqrt(va + vb)
	half := 0.0
	if se > 0 {
		df := (va + vb) * (va + vb) / (va*va/float64(len(a)-1) + vb*vb/float64(len(b)-1))
		half = tQuantile975(max(1, int(math.Floor(df)))) * se
	}
	return (d - half) / ma * 100, (d + half) / ma * 100
}

// bootstrapRatio returns the 95 % percentile bootstrap interval of
// mean(b)/mean(a) - 1, in percent: each side resampled with replacement
// o.Resamples times from a generator seeded by o.Seed and the metric, so
// that the same samples always give the same interval. Memory: one
// float a resample.
func bootstrapRatio(a, b []float64, o VerdictOptions, metric string) (lo, hi float64) {
	n := o.Resamples
	if n <= 0 {
		n = 2000
	}
	h := fnv.New64a()
	h.Write([]byte(metric))
	rng := rand.New(rand.NewPCG(o.Seed, h.Sum64()))
	ratios := make([]float64, 0, n)
	for range n {
		ma, mb := resampleMean(rng, a), resampleMean(rng, b)
		if ma != 0 {
			ratios = append(ratios, (mb/ma-1)*100)
		}
	}
	if len(ratios) == 0 {
		return math.Inf(-1), math.Inf(1)
	}
	slices.Sort(ratios)
	return quantileSorted(ratios, 0.025), quantileSorted(ratios, 0.975)
}

// resampleMean is the mean of len(xs) draws from xs with replacement.
func resampleMean(rng *rand.Rand, xs []float64) float64 {
	var s float64
	for range xs {
		s += xs[rng.IntN(len(xs))]
	}
	return s / float64(len(xs))
}

// quantileSorted is the q quantile of sorted xs, interpolated linearly.
func quantileSorted(xs []float64, q float64) float64 {
	pos := q * float64(len(xs)-1)
	i := int(math.Floor(pos))
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[i] + (pos-float64(i))*(xs[i+1]-xs[i])
}
