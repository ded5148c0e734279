package results

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// noisySeries is n seconds around rate, each off by up to ±spread
// (uniform, from a fixed seed: the same series every time).
func noisySeries(n int, rate, spread float64, seed uint64) []int64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(rate + (rng.Float64()*2-1)*spread)
	}
	return out
}

// batchSamples plans a series' batches and returns their req/s as samples.
func batchSamples(t *testing.T, per []int64) Samples {
	t.Helper()
	_, means, err := PlanBatches(per)
	if err != nil {
		return Samples{Kind: EvidenceBatches, Why: err.Error()}
	}
	return Samples{Kind: EvidenceBatches, Values: means}
}

// TestDecideShift: a variant 5 % faster than the baseline, one run each,
// is better, its interval covers the shift, and it says the evidence is
// batch means (the weaker kind).
func TestDecideShift(t *testing.T) {
	a := batchSamples(t, noisySeries(62, 1000, 40, 1))
	b := batchSamples(t, noisySeries(62, 1050, 40, 2))
	c := Decide("req/s", a, b, VerdictOptions{})
	if c.Word != WordBetter || c.LowPct > 5 || c.HighPct < 5 || c.Evidence != EvidenceBatches ||
		!strings.Contains(c.Why, "weaker evidence") {
		t.Fatalf("a +5%% shift: %+v", c)
	}
	if w := Decide(MetricFirstP99, a, b, VerdictOptions{}); w.Word != WordWorse {
		t.Errorf("a latency 5%% higher is worse: %+v", w)
	}
}

// TestDecideSame: identical series are no different, within the margin.
func TestDecideSame(t *testing.T) {
	per := noisySeries(62, 1000, 40, 3)
	c := Decide("req/s", batchSamples(t, per), batchSamples(t, per), VerdictOptions{})
	if c.Word != WordNoDifference || c.DeltaPct != 0 || c.LowPct < -2 || c.HighPct > 2 || !strings.Contains(c.Why, "within ±2%") {
		t.Fatalf("identical series: %+v", c)
	}
}

// TestDecideShortRun: one run of 8 s has too few seconds for batches.
func TestDecideShortRun(t *testing.T) {
	a := batchSamples(t, noisySeries(5, 1000, 40, 4)) // 3 seconds once the first and last go: fewer than VerdictMinBatches
	b := batchSamples(t, noisySeries(62, 1000, 40, 5))
	c := Decide("req/s", a, b, VerdictOptions{})
	if c.Word != WordUndecided || c.Evidence != EvidenceNone || !strings.Contains(c.Why, "too short") {
		t.Fatalf("a short run: %+v", c)
	}
}

// TestDecideRepeats: five repeats a side give Welch's t interval; two
// noisy repeats are too few to decide.
func TestDecideRepeats(t *testing.T) {
	a := Samples{Kind: EvidenceRepeats, Values: []float64{1000, 990, 1010, 1005, 995}}
	b := Samples{Kind: EvidenceRepeats, Values: []float64{900, 890, 910, 905, 895}}
	c := Decide("req/s", a, b, VerdictOptions{})
	if c.Word != WordWorse || c.Interval != IntervalWelch || c.LowPct > -10 || c.HighPct < -10 {
		t.Fatalf("-10%% over 5 repeats: %+v", c)
	}
	a.Values, b.Values = []float64{1000, 900}, []float64{1050, 920}
	if c := Decide("req/s", a, b, VerdictOptions{}); c.Word != WordUndecided || !strings.Contains(c.Why, "too few repeats (2 and 2)") {
		t.Errorf("two noisy repeats: %+v", c)
	}
}

// TestDecideP99Gate: a p99 23 % above the baseline's, per batch, is worse
// with an interval clear of +10 % (a '> +10%' gate is tested and fails),
// by a bootstrap that gives the same interval every time.
func TestDecideP99Gate(t *testing.T) {
	a, b := Samples{Kind: EvidenceBatches}, Samples{Kind: EvidenceBatches}
	for i := range 10 {
		a.Values = append(a.Values, 0.100+float64(i%3)*0.002)
		b.Values = append(b.Values, 0.123+float64(i%3)*0.002)
	}
	c := Decide(MetricFirstP99, a, b, VerdictOptions{})
	if c.Word != WordWorse || c.Interval != IntervalBootstrap || c.LowPct <= 10 || !c.Significant() {
		t.Fatalf("p99 +23%%: %+v", c)
	}
	if again := Decide(MetricFirstP99, a, b, VerdictOptions{}); again != c {
		t.Errorf("the bootstrap is not deterministic: %+v then %+v", c, again)
	}
}

// TestBatchLatency: per-batch percentiles of a recording whose latency
// doubles halfway.
func TestBatchLatency(t *testing.T) {
	per := make([]int64, 42)
	for i := range per {
		per[i] = 100 + int64(i%2)
	}
	b, means, err := PlanBatches(per)
	if err != nil || b.Count < MinBatches || len(means) != b.Count || b.First < 1 {
		t.Fatalf("batches %+v, %v, %v", b, means, err)
	}
	bl := NewBatchLatency(b)
	for i := range per {
		lat := 10 * time.Millisecond
		if i >= 21 {
			lat *= 2
		}
		h := NewOpHists()
		for range 100 {
			h.FirstByte.Record(lat)
			h.LastByte.Record(lat)
		}
		_ = bl.Add(i, Recording{"GET": h})
	}
	got := bl.Close()[MetricLastP99]
	if len(got) != b.Count || got[0] > 0.0101 || got[len(got)-1] < 0.0199 {
		t.Errorf("per-batch last-byte p99 %v", got)
	}
}

// TestDecidePairedRounds: interleaved repeats whose rounds drift by ±20 %
// together hide a steady +5 % from Welch's t, but not from the pairs of
// each round.
func TestDecidePairedRounds(t *testing.T) {
	drift := []float64{1000, 800, 1200, 900, 1100}
	a := Samples{Kind: EvidenceRepeats, Rounds: []int{1, 2, 3, 4, 5}}
	b := Samples{Kind: EvidenceRepeats, Rounds: []int{5, 4, 3, 2, 1}}
	for i, d := range drift {
		a.Values = append(a.Values, d)
		b.Values = append([]float64{d*1.05 + float64(i%2)*4}, b.Values...)
	}
	c := Decide("req/s", a, b, VerdictOptions{})
	if c.Interval != IntervalPaired || c.Word != WordBetter || c.LowPct > 5 || c.HighPct < 5 || !strings.Contains(c.By(), "paired t over 5 interleaved rounds") {
		t.Fatalf("paired: %+v (%s)", c, c.By())
	}
	a.Rounds, b.Rounds = nil, nil
	if w := Decide("req/s", a, b, VerdictOptions{}); w.Interval != IntervalWelch || w.Word != WordUndecided {
		t.Errorf("unpaired, the drift hides the change: %+v", w)
	}
	a.Rounds, b.Rounds = []int{1, 2, 3, 4, 5}, []int{1, 2, 3, 4, 6}
	if w := Decide("req/s", a, b, VerdictOptions{}); w.Interval == IntervalPaired {
		t.Errorf("rounds that differ were paired: %+v", w)
	}
}
