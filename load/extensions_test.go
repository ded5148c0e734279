package load

import (
	"context"
	"math/rand/v2"
	"net/http"
	"testing"
)

// TestHeadShareAndRateProfile: a scenario's head_share makes HEADs of
// existing objects, and its rate_profile makes the run exactly the
// profile's operations (100/s for 0.2 s, none for 0.2 s, 200/s for 0.2 s:
// 60), however long it takes.
func TestHeadShareAndRateProfile(t *testing.T) {
	s := testScenario(t, "[0, 1, 0, 0]", `, "head_share": 0.3, "run_seconds": 60, "operation_count": 0,
	  "rate_profile": {"interval": 0.2, "rates": [100, 0, 200]}`)
	f := prefilled(t, s)
	res, err := Run(context.Background(), Config{Scenario: s, Client: v1Client(f, "testing")})
	if err != nil {
		t.Fatal(err)
	}
	var ops int64
	for _, h := range res.Recording {
		ops += h.LastByte.Count() + h.ErrorCount()
	}
	heads := res.Recording[OpHead]
	if ops != 60 || heads == nil || heads.ErrorCount() != 0 || f.count(http.MethodHead) != int(heads.LastByte.Count()) {
		t.Fatalf("%d operations (want 60), HEADs %+v, the server saw %d", ops, heads, f.count(http.MethodHead))
	}
	if n := heads.LastByte.Count(); n < 5 || n > 35 {
		t.Errorf("%d HEADs of 60 operations at head_share 0.3", n)
	}
}

// TestZipfPopularitySkewsReads: with popularity.zipf, rank 0 (the first
// object) is drawn far more than rank 99; without, about as often.
func TestZipfPopularitySkewsReads(t *testing.T) {
	for _, c := range []struct {
		extra    string
		min, max float64
	}{
		{`, "popularity": {"zipf": 1.2}`, 20, 1e9},
		{``, 0.5, 2},
	} {
		o := newObjects(testScenario(t, "[0, 1, 0, 0]", c.extra))
		rng := rand.New(rand.NewPCG(1, 2))
		counts := make([]float64, 1000)
		for range 200000 {
			counts[o.drawRank(1000, rng)]++
		}
		if r := counts[0] / counts[99]; r < c.min || r > c.max {
			t.Errorf("%q: rank 0 drawn %v times, rank 99 %v: ratio %v, want %v to %v", c.extra, counts[0], counts[99], r, c.min, c.max)
		}
	}
}

// TestRateProfileSharedByAgents: two agents (part 0 and 1 of 2) share
// the profile's slots: 60 operations in all, not 60 each.
func TestRateProfileSharedByAgents(t *testing.T) {
	s := testScenario(t, "[0, 1, 0, 0]", `, "run_seconds": 60, "operation_count": 0,
	  "rate_profile": {"interval": 0.2, "rates": [100, 0, 200]}`)
	f := prefilled(t, s)
	counts := make(chan int64, 2)
	for part := range 2 {
		go func() {
			res, err := Run(context.Background(), Config{Scenario: s, Client: v1Client(f, "testing"), Part: part, Parts: 2})
			if err != nil {
				t.Error(err)
				counts <- 0
				return
			}
			counts <- res.Recording[OpRead].LastByte.Count()
		}()
	}
	a, b := <-counts, <-counts
	if a != 30 || b != 30 {
		t.Errorf("agents ran %d and %d operations, want 30 each", a, b)
	}
}
