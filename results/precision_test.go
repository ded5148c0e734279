package results

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// ar1 returns n samples of an AR(1) process around mean: x' = phi x + e,
// e normal with standard deviation sd (strongly autocorrelated for phi
// near 1, as per-second req/s are).
func ar1(seed uint64, n int, mean, phi, sd float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 2))
	xs := make([]float64, n)
	x := 0.0
	for i := -100; i < n; i++ { // burn in
		x = phi*x + sd*rng.NormFloat64()
		if i >= 0 {
			xs[i] = mean + x
		}
	}
	return xs
}

func TestBatchMeansIndependent(t *testing.T) {
	iv, err := BatchMeans(ar1(1, 400, 1000, 0, 50))
	if err != nil {
		t.Fatal(err)
	}
	if iv.Batch != 1 || iv.Batches != 400 {
		t.Errorf("independent samples: batch %d x %d, want 1 x 400", iv.Batch, iv.Batches)
	}
	// sd 50 over 400 samples: a standard error of 2.5, a half-width near 4.9.
	if iv.HalfWidth < 4 || iv.HalfWidth > 6 || math.Abs(iv.Mean-1000) > iv.HalfWidth {
		t.Errorf("interval %+v, want 1000 ± about 4.9", iv)
	}
}

// TestBatchMeansCoverage: on a strongly autocorrelated series the
// batch-means interval covers the true mean about 95 % of the time, where
// the naive one (batch 1, as if the seconds were independent) does not.
func TestBatchMeansCoverage(t *testing.T) {
	const runs = 300
	covered, naive, batched, none := 0, 0, 0, 0
	for seed := range uint64(runs) {
		xs := ar1(seed, 600, 1000, 0.8, 20)
		iv, err := BatchMeans(xs)
		if err != nil { // the run would go on: no interval yet
			none++
			continue
		}
		if iv.Batch > 1 {
			batched++
		}
		if math.Abs(iv.Mean-1000) <= iv.HalfWidth {
			covered++
		}
		m, sd := meanSD(xs)
		if math.Abs(m-1000) <= 1.96*sd/math.Sqrt(float64(len(xs))) {
			naive++
		}
	}
	t.Logf("covered %d, naive %d, batched %d, no interval %d of %d", covered, naive, batched, none, runs)
	if none > runs/20 {
		t.Errorf("no interval for %d of %d series of 600 s", none, runs)
	}
	if batched != runs-none {
		t.Errorf("batch 1 chosen for %d of %d autocorrelated series", runs-none-batched, runs-none)
	}
	if covered < (runs-none)*88/100 {
		t.Errorf("batch means covered the mean %d times of %d, want about 95 %%", covered, runs-none)
	}
	if naive > runs*60/100 {
		t.Errorf("the naive interval covered %d of %d: the series is not autocorrelated enough to test", naive, runs)
	}
}

func TestBatchMeansTooShort(t *testing.T) {
	if _, err := BatchMeans(ar1(1, 9, 1000, 0, 1)); err == nil {
		t.Error("9 samples gave an interval")
	}
}

func TestPrecisionStops(t *testing.T) {
	p := Precision{Target: 0.02, Max: time.Hour}
	xs := ar1(7, 3600, 1000, 0.5, 40)
	n := 0
	var why string
	for _, x := range xs {
		p.Add(x)
		n++
		if done, w := p.Done(); done {
			why = w
			break
		}
	}
	if !strings.HasPrefix(why, "precision ") || !strings.HasSuffix(why, "% reached") {
		t.Fatalf("stopped after %d s: %q, want precision reached", n, why)
	}
	if n < MinBatches || n > 120 {
		t.Errorf("2 %% of a 4 %%-noisy series took %d s, want between %d and 120", n, MinBatches)
	}
	q := Precision{Target: 0.001, Max: 30 * time.Second}
	for _, x := range ar1(8, 30, 1000, 0.5, 200) {
		q.Add(x)
	}
	if done, w := q.Done(); !done || w != "max 30s reached" {
		t.Errorf("at the max: %v %q", done, w)
	}
}
