package load

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestStopEndsTheRunCleanly(t *testing.T) {
	s := testScenario(t, "[0, 1, 0, 0]", "")
	f := prefilled(t, s)
	for _, rate := range []float64{0, 50} { // closed and open loop
		// Stopped once the server has answered a GET (not after a
		// sleep, which a loaded machine can outlast before the first).
		stop := make(chan struct{})
		before := f.count(http.MethodGet)
		go func() {
			for f.count(http.MethodGet) == before {
				time.Sleep(time.Millisecond)
			}
			close(stop)
		}()
		res, err := Run(context.Background(), Config{Scenario: s, Client: v1Client(f, "testing"), Duration: time.Hour, Rate: rate, Stop: stop})
		if err != nil {
			t.Fatal(err)
		}
		get := res.Recording[OpRead]
		if res.Duration > time.Minute || get == nil || get.LastByte.Count() == 0 || get.ErrorCount() != 0 {
			t.Errorf("rate %g: a stopped run: %v, %+v", rate, res.Duration, get)
		}
	}
}

func TestRunPreciseSaysWhyItStopped(t *testing.T) {
	s := testScenario(t, "[0, 1, 0, 0]", "")
	f := prefilled(t, s)
	cfg := Config{Scenario: s, Client: v1Client(f, "testing"), Interval: 20 * time.Millisecond}
	res, why, err := RunPrecise(context.Background(), cfg, 1, time.Hour) // a half-width of 100 %: at the first 10 intervals
	if err != nil || !strings.HasPrefix(why, "precision ") || !strings.HasSuffix(why, "% reached") || res.Duration > time.Minute {
		t.Fatalf("%v %q %v", err, why, res.Duration)
	}
	if res.Recording[OpRead].LastByte.Count() == 0 {
		t.Error("no operation recorded")
	}
	_, why, err = RunPrecise(context.Background(), cfg, 1e-12, 300*time.Millisecond)
	if err != nil || why != "max 300ms reached" {
		t.Errorf("%v %q", err, why)
	}
}

func TestWarmupEnds(t *testing.T) {
	s := testScenario(t, "[0, 1, 0, 0]", "")
	f := prefilled(t, s)
	cfg := Config{Scenario: s, Client: v1Client(f, "testing"), Interval: 20 * time.Millisecond}
	why, err := Warmup(context.Background(), cfg, 500*time.Millisecond)
	if err != nil || !(strings.HasPrefix(why, "steady after ") || strings.HasPrefix(why, "not steady after 500ms: ")) {
		t.Errorf("%v %q", err, why)
	}
}
