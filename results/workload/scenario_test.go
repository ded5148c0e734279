package workload_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"benchbed/plan/scenario"
	"benchbed/results/workload"
)

// draws simulates n operations of s as load draws them (a HEAD at
// head_share, else a class by initial_files and an op by its crud
// profile, a size uniform in the class) and returns the mix in percent
// and the PUT sizes, sorted.
func draws(s *scenario.Scenario, n int) (map[string]float64, []float64) {
	rng := rand.New(rand.NewPCG(5, 6))
	total := 0.0
	for _, v := range s.InitialFiles {
		total += float64(v)
	}
	mix := map[string]float64{}
	var puts []float64
	for range n {
		if rng.Float64() < s.HeadShare {
			mix["HEAD"]++
			continue
		}
		u, c := rng.Float64()*total, 0
		for ; c < len(s.Sizes)-1; c++ {
			if u -= float64(s.InitialFiles[s.Sizes[c].Name]); u < 0 {
				break
			}
		}
		z := s.Sizes[c]
		p := z.CrudProfile
		w := rng.Float64() * (p[0] + p[1] + p[2] + p[3])
		switch {
		case w < p[0]:
			mix["PUT"]++
			puts = append(puts, float64(z.SizeMin)+rng.Float64()*float64(z.SizeMax-z.SizeMin))
		case w < p[0]+p[1]:
			mix["GET"]++
		case w < p[0]+p[1]+p[2]: // an update: a PUT too
			mix["PUT"]++
			puts = append(puts, float64(z.SizeMin)+rng.Float64()*float64(z.SizeMax-z.SizeMin))
		default:
			mix["DELETE"]++
		}
	}
	for k := range mix {
		mix[k] *= 100 / float64(n)
	}
	slices.Sort(puts)
	return mix, puts
}

// TestScenarioReproducesTheFit: the fitted scenario, drawn as load draws,
// gives back the log's mix within 2 points and its PUT size quantiles
// within 10 %; it carries the Zipf exponent and the rate profile.
func TestScenarioReproducesTheFit(t *testing.T) {
	f, fit := fit(t, workload.Options{}, known(100000))
	s, err := f.Scenario(fit, workload.ScenarioOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mix, puts := draws(s, 200000)
	for _, op := range fit.Ops {
		if math.Abs(mix[op.Method]-op.Percent) > 2 {
			t.Errorf("%s: %.2f %% drawn, %.2f %% logged", op.Method, mix[op.Method], op.Percent)
		}
		if op.Method != "PUT" {
			continue
		}
		for q, want := range map[float64]float64{0.1: op.Sizes.P10, 0.5: op.Sizes.P50, 0.9: op.Sizes.P90, 0.99: op.Sizes.P99} {
			if got := puts[int(q*float64(len(puts)))]; !within(got, want, 0.10) {
				t.Errorf("PUT size quantile %v: %.0f drawn, %.0f logged", q, got, want)
			}
		}
	}
	if s.Popularity == nil || s.Popularity.Zipf != fit.Popularity.Zipf || s.RateProfile == nil ||
		len(s.RateProfile.Rates) != len(fit.Profile.Rates) {
		t.Errorf("popularity %+v, rate profile %+v", s.Popularity, s.RateProfile)
	}
	var ops float64
	for _, r := range s.RateProfile.Rates {
		ops += r * s.RateProfile.Interval
	}
	var objects int64
	for _, op := range fit.Ops {
		objects += op.Count
	}
	if !within(ops, float64(objects), 0.05) {
		t.Errorf("the rate profile makes %.0f operations, the log has %d object requests", ops, objects)
	}
}
