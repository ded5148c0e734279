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
// Starts follow an ideal timeline, so a late timer on a loaded machine
// delays an answer, never the next start: the capacity stays 200 req/s.
// Under it a request takes 100 ms whatever the rate (open-loop sends are
// evenly spaced, so no queue forms); over it by x the queue grows through
// the probe, and the median request waits about x * probe / 2: 80 ms at
// 5.3 % over in 3 s, past the SLO's first_byte_p50 < 180 ms, so no rate
// above 211 req/s passes. The SLO is on the median, with 80 ms of slack
// under the capacity, so the scheduling stalls of a loaded machine (which
// hit a few requests, the p99's, and make the client's sends bunch) do
// not fail a probe under it: the answer lies within the resolution (5 %)
// under 200 req/s or the 5.3 % over it on a machine with cores to spare.
// A busy one can only lower it: the client's sends and the server's timers
// lag (176 req/s found with the race detector on beside other packages'
// tests and the distro lab's image build on 2 cores), while no rate over
// 211 req/s can pass whatever the load. So the test holds the answer to at
// most 10 % over the capacity and at least half of it: the search's own
// arithmetic is results' TestSearchFindsTheCapacity's, on a fake probe.
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

func TestLoadSearchFindsTheKnownCapacity(t *testing.T) {
	if testing.Short() {
		t.Skip("about 30 s of probes")
	}
	srv := knownCapacityServer(t)
	out, stderr, err := runCmd(t, "", searchArgs(srv, "first_byte_p50<180ms,errors<0.1%",
		"--search-from", "60", "--search-to", "800", "--probe", "3s")...)
	var got struct{ Search results.SearchResult }
	if err != nil || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("err %v\n%s\n%s", err, out, stderr)
	}
	s := got.Search
	t.Logf("capacity %.1f req/s (%s), %d probes:\n%s", s.Capacity, s.Outcome, len(s.Probes), stderr)
	if s.Capacity < knownCapacity*0.5 || s.Capacity > knownCapacity*1.1 {
		t.Errorf("capacity %.1f req/s, want between half of %g and 10 %% over it:\n%s", s.Capacity, knownCapacity, stderr)
	}
	if s.Outcome != results.OutcomeCapacity && s.Outcome != results.OutcomeUnconfirmed {
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
