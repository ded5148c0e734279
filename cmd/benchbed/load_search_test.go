package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"benchbed/results"
)

// Known capacity: the server starts one request every knownService /
// knownSlots (5 ms) and answers each knownService (100 ms) after its
// start, as knownSlots slots of 100 ms with a queue would: 200 req/s.
// Under it a request takes 100 ms whatever the rate (open-loop sends are
// evenly spaced, so no queue forms); over it by x the queue grows through
// the probe, and the median request waits about x * probe / 2. Measured,
// that answer was this machine's speed: a loaded one's late sends and
// timers found 176 req/s (c0815b9 then held it to at least half of 200,
// still a timing). So TestLoadSearchFindsTheKnownCapacity runs its probes
// against this server for real, but the search judges knownModel's
// outcome of each: the server's figures by the arithmetic above, at any
// load; the search's own arithmetic is results' TestSearchFindsTheCapacity's.
const (
	knownSlots    = 20
	knownService  = 100 * time.Millisecond
	knownCapacity = 200.0
)

func knownCapacityServer(t *testing.T) *httptest.Server {
	var mu sync.Mutex
	var next time.Time // when the next request may start
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		start := time.Now()
		if start.Before(next) {
			start = next
		}
		next = start.Add(knownService / knownSlots)
		mu.Unlock()
		select {
		case <-time.After(time.Until(start.Add(knownService))):
		case <-r.Context().Done():
			return
		}
		_, _ = w.Write([]byte("0123456789"))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func searchArgs(srv *httptest.Server, slo string, extra ...string) []string {
	return append([]string{"load", "--scenario", seedScenario, "--storage-url", srv.URL + "/v1/AUTH_t",
		"--token", "tok", "--initial", "skip", "--users", "150", "--search", slo, "--json"}, extra...)
}

// knownProbe is TestLoadSearchFindsTheKnownCapacity's probe length, and
// knownLimit the highest rate whose modelled median first byte (knownModel)
// meets its SLO's 180 ms: 80 ms of queue at the probe's middle.
const (
	knownProbe = time.Second
	knownLimit = knownCapacity * (1 + 0.080/(0.5*float64(knownProbe/time.Second)))
)

// knownModel is the outcome of a probe at rate of the known-capacity
// server by its arithmetic: every request answered (achieved = offered),
// its median first byte knownService, plus over the capacity the queue's
// wait at the probe's middle. The measured count, errors and CPU stay.
func knownModel(rate float64, measured results.ProbeOutcome) results.ProbeOutcome {
	p50 := knownService.Seconds() + max(0, rate/knownCapacity-1)*knownProbe.Seconds()/2
	measured.Total.ReqPerS = rate
	measured.Total.FirstByte = results.Stats{Min: p50, Mean: p50, P50: p50, P95: p50, P99: p50, P999: p50, Max: p50}
	return measured
}

func TestLoadSearchFindsTheKnownCapacity(t *testing.T) {
	srv := knownCapacityServer(t)
	scriptProbe = knownModel
	t.Cleanup(func() { scriptProbe = nil })
	out, stderr, err := runCmd(t, "", searchArgs(srv, "first_byte_p50<180ms,errors<0.1%",
		"--search-from", "60", "--search-to", "800", "--probe", knownProbe.String())...)
	var got struct{ Search results.SearchResult }
	if err != nil || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("err %v\n%s\n%s", err, out, stderr)
	}
	s := got.Search
	t.Logf("capacity %.1f req/s (%s), %d probes:\n%s", s.Capacity, s.Outcome, len(s.Probes), stderr)
	// The bisection ends with the rate that passed within 5 % of one that
	// failed, both sides of knownLimit; the confirming probe repeats it.
	if s.Capacity < knownLimit/1.05 || s.Capacity > knownLimit {
		t.Errorf("capacity %.1f req/s, want within 5 %% under %.1f:\n%s", s.Capacity, knownLimit, stderr)
	}
	if s.Outcome != results.OutcomeCapacity {
		t.Errorf("outcome %q: %s", s.Outcome, s.Why)
	}
	var failed bool
	for _, p := range s.Probes {
		failed = failed || !p.Pass && p.Offered > s.Capacity
		if p.Count == 0 || p.Why == "" || p.ClientCPU == nil {
			t.Errorf("probe without its figures: %+v", p)
		}
	}
	if !failed || s.Probes[len(s.Probes)-1].Role != "confirm" {
		t.Errorf("no failing probe above the capacity, or no confirmation: %+v", s.Probes)
	}
	if strings.Count(stderr, "probe at ") != len(s.Probes) {
		t.Errorf("progress on stderr: %d lines for %d probes", strings.Count(stderr, "probe at "), len(s.Probes))
	}
}

func TestLoadSearchNoRateMeetsTheSLO(t *testing.T) {
	srv := knownCapacityServer(t)
	out, _, err := runCmd(t, "", searchArgs(srv, "first_byte_p99<50ms", "--search-from", "20", "--probe", "1s")...)
	var got struct{ Search results.SearchResult }
	if err == nil || !strings.Contains(err.Error(), "no rate meets the SLO") || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("err %v\n%s", err, out)
	}
	if s := got.Search; s.Capacity != 0 || len(s.Probes) != 1 || s.Probes[0].Offered != 20 || s.Probes[0].FirstByte.P99 < 0.1 {
		t.Errorf("%+v", s)
	}
	args := searchArgs(srv, "first_byte_p99<50ms", "--search-from", "20", "--probe", "1s")
	out, _, _ = runCmd(t, "", slices.DeleteFunc(args, func(a string) bool { return a == "--json" })...)
	if !strings.HasPrefix(out, "no rate meets the SLO (first_byte_p99<50ms): even the lowest rate misses the SLO") ||
		!strings.Contains(out, "offered req/s") {
		t.Errorf("table:\n%s", out)
	}
}

func TestLoadSearchFlags(t *testing.T) {
	srv := nullSwift(t)
	for args, want := range map[string]string{
		"first_byte_p98<1s":                        "p98",
		"first_byte_p99<1s --duration 10s":         "--duration with --search",
		"errors<1% --search-from 0":                "want 0 < from < to",
		"errors<1% --resolution 0":                 "resolution",
		"errors<1% --search-to 5 --search-from 10": "want 0 < from < to",
	} {
		f := strings.Fields(args)
		_, _, err := runCmd(t, "", searchArgs(srv, f[0], f[1:]...)...)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", args, err, want)
		}
	}
}

func TestLoadDurationAuto(t *testing.T) {
	srv := nullSwift(t)
	out, _, err := runCmd(t, "", "load", "--scenario", seedScenario, "--storage-url", srv.URL+"/v1/AUTH_t",
		"--token", "tok-secret", "--users", "2", "--initial", "skip", "--duration", "auto", "--precision", "0.0001%",
		"--max-duration", "1500ms", "--json")
	var c results.Cell
	if err != nil || json.Unmarshal([]byte(out), &c) != nil {
		t.Fatalf("err %v\n%s", err, out)
	}
	if c.Stopped != "max 1.5s reached" || c.Total.Count == 0 || c.DurationS > 60 {
		t.Errorf("stopped %q after %.1f s, %d operations", c.Stopped, c.DurationS, c.Total.Count)
	}
	_, _, err = runCmd(t, "", "load", "--scenario", seedScenario, "--duration", "soon")
	if err == nil || !strings.Contains(err.Error(), "or auto") {
		t.Errorf("--duration soon: %v", err)
	}
}
