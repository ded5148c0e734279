package metrics

import (
	"strings"
	"testing"
	"time"

	"benchbed/results"
)

// rec is a recording of n GETs of latency d and errs 503s.
func rec(n int, d time.Duration, errs int64) results.Recording {
	h := results.NewOpHists()
	for range n {
		h.FirstByte.Record(d / 2)
		h.LastByte.Record(d)
	}
	if errs > 0 {
		h.Errors["http_503"] = errs
	}
	return results.Recording{"GET": h}
}

// collect returns an Aggregator and the points it sent.
func collect() (*Aggregator, *[]Point) {
	var got []Point
	return NewAggregator(func(p []Point) { got = append(got, p...) }), &got
}

// find returns the points named name whose labels include want.
func find(pts []Point, name string, want ...string) []Point {
	var out []Point
next:
	for _, p := range pts {
		if p.Name != name {
			continue
		}
		for i := 0; i+1 < len(want); i += 2 {
			if p.Label(want[i]) != want[i+1] {
				continue next
			}
		}
		out = append(out, p)
	}
	return out
}

func TestAggregatorMergesStreamsByInterval(t *testing.T) {
	a, got := collect()
	t0 := time.Unix(1000, 0)
	a.Phase(State{Run: "r1", Testbed: "lab", Variant: "v", Workload: "w", Cell: "c1", Phase: PhaseRun},
		[]string{"http://p1:8080/auth/v1.0", "http://p1:8080/auth/v1.0"}, t0)
	a.Interval(0, 0, t0, t0.Add(time.Second), rec(100, 10*time.Millisecond, 1))
	if n := len(find(*got, SeriesReqPerS)); n != 0 {
		t.Fatalf("interval 0 told before stream 1 reported it: %d points", n)
	}
	a.Interval(1, 0, t0, t0.Add(time.Second), rec(50, 20*time.Millisecond, 0))
	a.Interval(1, 1, t0.Add(time.Second), t0.Add(2*time.Second), rec(10, 20*time.Millisecond, 0))
	a.End(t0.Add(3 * time.Second))
	rps := find(*got, SeriesReqPerS, LabelOp, "all")
	if len(rps) != 2 || rps[0].Value != 150 || rps[1].Value != 10 {
		t.Fatalf("req/s by interval = %+v, want 150 then 10", rps)
	}
	so := find(*got, SeriesPhaseReqPerS, LabelOp, "GET")
	if len(so) != 2 || so[1].Value != 80 {
		t.Fatalf("phase req/s so far = %+v, want 80 at the end (160 in 2 s)", so)
	}
	errs := find(*got, SeriesErrPerS, LabelCause, "http_503", LabelOp, "GET")
	if len(errs) != 1 || errs[0].Value != 1 {
		t.Fatalf("errors/s = %+v", errs)
	}
	p99 := find(*got, SeriesLastByte, LabelQuantile, "0.99", LabelOp, "all")
	if len(p99) != 2 || p99[0].Value < 0.0199 || p99[0].Value > 0.0201 {
		t.Fatalf("last-byte p99 = %+v, want 20 ms", p99)
	}
	p := rps[0]
	for _, l := range []string{LabelRun, LabelTestbed, LabelVariant, LabelWorkload, LabelCell, LabelPhase, LabelEndpoint} {
		if p.Label(l) == "" {
			t.Errorf("label %s missing: %+v", l, p.Labels)
		}
	}
	states := find(*got, SeriesState)
	if first, last := states[0].Label(LabelPhase), states[len(states)-1].Label(LabelPhase); first != PhaseRun || last != PhaseIdle {
		t.Errorf("state phases %s ... %s, want run ... idle", first, last)
	}
}

func TestAggregatorEndpoints(t *testing.T) {
	a, got := collect()
	t0 := time.Unix(1000, 0)
	a.Phase(State{Cell: "c", Phase: PhaseRun}, []string{"http://a/v1", "http://b/v1"}, t0)
	a.Interval(0, 0, t0, t0.Add(time.Second), rec(3, time.Millisecond, 0))
	a.Interval(1, 0, t0, t0.Add(time.Second), rec(5, time.Millisecond, 0))
	a.End(t0)
	for ep, want := range map[string]float64{"http://a/v1": 3, "http://b/v1": 5, "all": 8} {
		ps := find(*got, SeriesRequests, LabelEndpoint, ep, LabelOp, "all")
		if len(ps) != 1 || ps[0].Value != want {
			t.Errorf("endpoint %s: %+v, want %v", ep, ps, want)
		}
	}
}

func TestNoSecretInLabels(t *testing.T) {
	const secret = "s3cr3t-K3y"
	a, got := collect()
	t0 := time.Unix(1000, 0)
	a.Phase(State{Run: "r", Cell: "c", Phase: PhaseProbe, Rate: 50},
		[]string{"http://admin:" + secret + "@p1:8080/v1/AUTH_test?temp_url_sig=" + secret + "#" + secret}, t0)
	a.Interval(0, 0, t0, t0.Add(time.Second), rec(1, time.Millisecond, 0))
	a.End(t0)
	body, err := EncodeLines(*got)
	if err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{string(body), string(EncodeWriteRequest(*got))} {
		if strings.Contains(out, secret) {
			t.Fatalf("the secret reached an output:\n%s", out)
		}
		if !strings.Contains(out, "http://p1:8080/v1/AUTH_test") {
			t.Fatalf("the endpoint's label is missing:\n%s", out)
		}
	}
	if r := find(*got, SeriesOfferedRate); len(r) == 0 || r[0].Value != 50 {
		t.Errorf("offered rate = %+v, want 50", r)
	}
}

// TestAggregatorMeasuredEndsOnTheSummary: Measured tells the pending
// intervals and sends the phase so far over the measured duration (2.5 s,
// not the intervals' summed 2 s), with no state point, so that an End in
// the same millisecond leaves the phases in order (run, then idle).
func TestAggregatorMeasuredEndsOnTheSummary(t *testing.T) {
	a, got := collect()
	t0 := time.Unix(1000, 0)
	a.Phase(State{Run: "r1", Cell: "c1", Phase: PhaseRun}, []string{"http://p1:8080/auth/v1.0", "http://p1:8080/auth/v1.0"}, t0)
	a.Interval(0, 0, t0, t0.Add(time.Second), rec(100, 10*time.Millisecond, 0))
	a.Interval(1, 0, t0, t0.Add(time.Second), rec(50, 10*time.Millisecond, 0))
	a.Interval(0, 1, t0.Add(time.Second), t0.Add(2*time.Second), rec(100, 10*time.Millisecond, 0)) // stream 1 never says done
	end := t0.Add(3 * time.Second)
	before := len(*got)
	a.Measured(2500*time.Millisecond, end)
	a.End(end)
	rps := find(*got, SeriesPhaseReqPerS, LabelOp, "all")
	if n := len(rps); n != 3 || rps[0].Value != 150 || rps[1].Value != 250/2.0 || rps[2].Value != 250/2.5 || !rps[2].Time.Equal(end) {
		t.Fatalf("phase req/s %v: want 150 over 1 s, 250 over 2 s once Measured told the pending interval, then 250 over the measured 2.5 s at the end", rps)
	}
	if el := find(*got, SeriesPhaseElapsed); el[len(el)-1].Value != 2.5 {
		t.Errorf("the last elapsed %g, want the measured 2.5 s", el[len(el)-1].Value)
	}
	var phases []string
	for _, p := range find((*got)[before:], SeriesState) {
		if p.Time.Equal(end) {
			phases = append(phases, p.Label(LabelPhase))
		}
	}
	if len(phases) != 1 || phases[0] != PhaseIdle {
		t.Errorf("states at the end %v, want idle alone", phases)
	}
	n := len(*got)
	a.Phase(State{Run: "r1", Cell: "c2", Phase: PhaseRun}, nil, end)
	a.Measured(time.Second, end) // a phase with no interval: no figures
	if f := find((*got)[n:], SeriesPhaseReqPerS); len(f) != 0 {
		t.Errorf("a phase with no interval sent figures: %v", f)
	}
}
