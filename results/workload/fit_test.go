package workload_test

import (
	"math"
	"testing"
	"time"

	"benchbed/plan/proxylog"
	"benchbed/plan/proxylog/proxylogtest"
	"benchbed/results/workload"
)

// known is a synthetic log of a known workload.
func known(lines int64) proxylogtest.Spec {
	return proxylogtest.Spec{Name: "known.log", Lines: lines, Start: time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC),
		Rates: []float64{200, 400}, PhaseSeconds: 30,
		Mix:     map[string]float64{"GET": 60, "PUT": 20, "HEAD": 10, "DELETE": 10},
		SizeMin: 1 << 10, SizeMax: 10 << 20, Objects: 20000, Zipf: 1, Containers: 10,
		NotFound: 0.02, SubEvery: 20, AuthEvery: 100, GarbleEvery: 1000, Syslog: true, Seed: 3}
}

// fit reads specs' logs and fits them.
func fit(t testing.TB, opts workload.Options, specs ...proxylogtest.Spec) (*workload.Fitter, *workload.Fit) {
	t.Helper()
	tp, err := proxylog.Compile(proxylog.DefaultTemplate)
	if err != nil {
		t.Fatal(err)
	}
	var ins []proxylog.Input
	for _, s := range specs {
		ins = append(ins, proxylog.Input{Name: s.Name, R: s.Reader()})
	}
	r, err := proxylog.NewReader(tp, ins...)
	if err != nil {
		t.Fatal(err)
	}
	f := workload.New(opts)
	for rec, ok := r.Next(); ok; rec, ok = r.Next() {
		f.Add(rec)
	}
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	return f, f.Fit(r.Stats())
}

// within reports whether got is within frac of want.
func within(got, want, frac float64) bool { return math.Abs(got-want) <= frac*math.Abs(want) }

func TestFitRecoversKnownWorkload(t *testing.T) {
	s := known(200000)
	_, got := fit(t, workload.Options{}, s)
	if got.Garbled != 200 || got.Subrequests == 0 || got.Kinds["auth"] == 0 {
		t.Errorf("garbled %d, subrequests %d, kinds %v", got.Garbled, got.Subrequests, got.Kinds)
	}
	want := map[string]float64{"GET": 60, "PUT": 20, "HEAD": 10, "DELETE": 10}
	for _, op := range got.Ops {
		if math.Abs(op.Percent-want[op.Method]) > 2 {
			t.Errorf("%s: %.2f %% of the mix, want %.0f within 2 points", op.Method, op.Percent, want[op.Method])
		}
		if op.Method != "GET" && op.Method != "PUT" {
			continue
		}
		for q, v := range map[float64]float64{0.1: op.Sizes.P10, 0.25: op.Sizes.P25, 0.5: op.Sizes.P50, 0.75: op.Sizes.P75, 0.9: op.Sizes.P90, 0.99: op.Sizes.P99} {
			if !within(v, s.SizeQuantile(q), 0.10) {
				t.Errorf("%s size quantile %v: %v, want %v within 10 %%", op.Method, q, v, s.SizeQuantile(q))
			}
		}
	}
	// 200/s for 30 s then 400/s for 30 s, cycling: 11 cycles of 18000
	// lines, then 2000 lines at 200/s, 670 s in all. Client requests are
	// every line but the garbled (1 in 1000) and the subrequests (1 in 20
	// but not 1 in 100, auth's): 191800.
	if !within(got.Seconds, 670, 0.01) || !within(got.MeanRate, 191800/670.0, 0.05) || got.Requests != 191800 {
		t.Errorf("%d requests, mean rate %.2f over %.1f s, want 191800, %.2f over 670 s", got.Requests, got.MeanRate, got.Seconds, 191800/670.0)
	}
	if !within(got.Popularity.Zipf, 1, 0.15) {
		t.Errorf("zipf %v, want 1 within 0.15", got.Popularity.Zipf)
	}
	if l := got.Lifetimes; l.Overwrites == 0 || l.GetsMatched == 0 || l.PutToGet == nil || l.DelsMatched == 0 {
		t.Errorf("lifetimes %+v: PUTs over Zipf-drawn objects overwrite, GETs and DELETEs follow PUTs", l)
	}
	if o := got.Popularity.Objects; o > 20000*1.03 || o < 10000 {
		t.Errorf("objects %v, want at most about 20000 (a Zipf draw misses some) and more than 10000", o)
	}
}
