package results

import (
	"math"
	"strings"
	"testing"
	"time"
)

// second is one interval's recording: n GETs of latency lat and e failed
// ones of cause.
func second(n int, lat time.Duration, e int, cause string) Recording {
	h := NewOpHists()
	for range n {
		h.FirstByte.Record(lat / 2)
		h.LastByte.Record(lat)
	}
	if e > 0 {
		h.Errors[cause] = int64(e)
	}
	return Recording{"GET": h}
}

// faultRun feeds a 60 s run with a fault from 20 s to 30 s: healthy before,
// slow and failing during, then recoverAfter seconds at half speed before
// it is healthy again (recoverAfter < 0: never).
func faultRun(t *testing.T, recoverAfter int, opts RecoveryOptions) FaultPhases {
	t.Helper()
	s := NewSplit(Window{Start: 20 * time.Second, End: 30 * time.Second}, time.Second, opts)
	for i := range 60 {
		var r Recording
		switch {
		case i < 20:
			r = second(100, 10*time.Millisecond, 0, "")
		case i < 30:
			r = second(20, 100*time.Millisecond, 5, "http_503")
		case recoverAfter < 0 || i < 30+recoverAfter:
			r = second(50, 50*time.Millisecond, 0, "")
		default:
			r = second(100, 10*time.Millisecond, 0, "")
		}
		if err := s.Add(i, r); err != nil {
			t.Fatal(err)
		}
	}
	return s.Close(60 * time.Second)
}

func near(a, b float64) bool { return math.Abs(a-b) <= 0.01*math.Max(math.Abs(a), math.Abs(b)) }

func TestSplitPhasesAndDegradation(t *testing.T) {
	fp := faultRun(t, 4, RecoveryOptions{Gate: 0.01})
	if len(fp.Phases) != 3 {
		t.Fatalf("phases: %+v", fp.Phases)
	}
	b, d, a := fp.Phase(PhaseBefore), fp.Phase(PhaseDuring), fp.Phase(PhaseAfter)
	if b.Total.Count != 2000 || !near(b.Total.ReqPerS, 100) || b.Total.Errors != 0 || b.EndS != 20 {
		t.Errorf("before: %+v", b.Total)
	}
	if d.Total.Count != 200 || !near(d.Total.ReqPerS, 20) || d.Total.ErrorsBy["http_503"] != 50 || d.StartS != 20 || d.EndS != 30 {
		t.Errorf("during: %+v", d.Total)
	}
	if a.Total.Count != 4*50+26*100 || a.StartS != 30 || a.EndS != 60 {
		t.Errorf("after: %+v", a.Total)
	}
	g := fp.Degradation
	if !near(g.ReqPerS, 0.2) || !near(g.LastByteP99, 10) || !near(g.FirstByteP50, 10) || !near(g.ErrorRateDelta, 50.0/250) {
		t.Errorf("degradation: %+v", g)
	}
	if len(fp.Seconds) != 60 || fp.Seconds[25].Phase != PhaseDuring || fp.Seconds[25].Errors != 5 || !near(fp.Seconds[25].P99, 0.1) {
		t.Errorf("seconds: %+v", fp.Seconds[25])
	}
}

func TestRecoveryTime(t *testing.T) {
	fp := faultRun(t, 4, RecoveryOptions{Gate: 0.01})
	if r := fp.Recovery; !r.Recovered || r.AfterS != 4 || r.WindowS != DefaultRecoveryWindowS || r.Band != DefaultRecoveryBand {
		t.Errorf("recovery: %+v", r)
	}
	if fp.Recovery.Text() != "4 s after the undo" {
		t.Errorf("text %q", fp.Recovery.Text())
	}
	if fp := faultRun(t, 0, RecoveryOptions{}); !fp.Recovery.Recovered || fp.Recovery.AfterS != 0 {
		t.Errorf("at once: %+v", fp.Recovery)
	}
	// A window of 30 s cannot fit after 4 slow seconds in the 30 s left.
	if fp := faultRun(t, 4, RecoveryOptions{WindowS: 30}); fp.Recovery.Recovered {
		t.Errorf("recovered with a window longer than what is left: %+v", fp.Recovery)
	}
	never := faultRun(t, -1, RecoveryOptions{Gate: 0.01})
	if never.Recovery.Recovered || never.Recovery.Text() != "not recovered in the run" {
		t.Errorf("never: %+v", never.Recovery)
	}
	// Half the rate is within a band of 60 %, and so is 5x the p99 not.
	if fp := faultRun(t, -1, RecoveryOptions{Band: 0.6}); fp.Recovery.Recovered {
		t.Errorf("5x p99 within a 60 %% band: %+v", fp.Recovery)
	}
}

func TestRecoveryNeedsTheErrorGate(t *testing.T) {
	s := NewSplit(Window{Start: 2 * time.Second, End: 4 * time.Second}, time.Second, RecoveryOptions{Gate: 0.01, WindowS: 2})
	for i := range 12 {
		r := second(100, 10*time.Millisecond, 0, "")
		if i >= 4 && i < 8 {
			r = second(100, 10*time.Millisecond, 10, "http_507") // healthy speed, but failing
		}
		_ = s.Add(i, r)
	}
	fp := s.Close(12 * time.Second)
	if !fp.Recovery.Recovered || fp.Recovery.AfterS != 4 {
		t.Errorf("recovery with errors until 8 s: %+v", fp.Recovery)
	}
	if g := fp.Gate(0.01, nil); g == nil || g.Phase != PhaseAfter || !strings.Contains(g.Error(), "the after phase's error rate") {
		t.Errorf("after's errors pass the gate: %v", g)
	}
}

func TestFaultGates(t *testing.T) {
	fp := faultRun(t, 4, RecoveryOptions{Gate: 0.01})
	if g := fp.Gate(0.01, nil); g != nil {
		t.Errorf("errors during a fault failed the cell without a limit: %v", g)
	}
	limit := 0.05
	g := fp.Gate(0.01, &limit)
	if g == nil || g.Phase != PhaseDuring || !strings.Contains(g.Causes, "http_503=50") {
		t.Errorf("during's 20 %% errors under a 5 %% limit: %v", g)
	}
	if err := NewSplit(Window{}, 0, RecoveryOptions{}).Add(-1, nil); err == nil {
		t.Error("an interval out of order is accepted")
	}
}

func TestWindowAtTheStartHasNoBefore(t *testing.T) {
	s := NewSplit(Window{Start: 0, End: 3 * time.Second}, time.Second, RecoveryOptions{})
	for i := range 6 {
		_ = s.Add(i, second(10, time.Millisecond, 0, ""))
	}
	fp := s.Close(6 * time.Second)
	if fp.Phase(PhaseBefore) != nil || fp.Phase(PhaseDuring) == nil || fp.Recovery.Recovered || fp.Degradation.ReqPerS != 0 {
		t.Errorf("%+v", fp)
	}
}

func TestCorruptFailsEveryPhase(t *testing.T) {
	s := NewSplit(Window{Start: 2 * time.Second, End: 4 * time.Second}, time.Second, RecoveryOptions{Gate: 0.01, WindowS: 2})
	for i := range 6 {
		r := second(100, 10*time.Millisecond, 0, "")
		if i == 2 {
			r = second(100, 10*time.Millisecond, 1, CauseCorrupt) // one wrong body while the fault lasts
		}
		_ = s.Add(i, r)
	}
	fp := s.Close(6 * time.Second)
	g := fp.Gate(0.01, nil)
	if g == nil || g.Phase != PhaseDuring || g.Corrupt != 1 || !strings.Contains(g.Error(), "the during phase's 1 reads returned data that differs") {
		t.Fatalf("a corrupt read during a fault without a limit: %v", g)
	}
	if !strings.Contains(g.Causes, "corrupt=1") {
		t.Errorf("causes %q lack corrupt=1", g.Causes)
	}
}

// TestRateAndP99IsSummarisesTotal: a second's figures are Summarise's own
// (count, errors, req/s, last byte p99) for several operations, with
// errors, and for none.
func TestRateAndP99IsSummarisesTotal(t *testing.T) {
	r := second(100, 10*time.Millisecond, 3, "http_503")
	put := second(40, 250*time.Millisecond, 1, "timeout")
	r["PUT"] = put["GET"]
	for _, rec := range []Recording{r, {}} {
		want := Summarise(rec, 2*time.Second).Total
		got := rateAndP99(rec, 2*time.Second)
		if got.Count != want.Count || got.Errors != want.Errors || got.ReqPerS != want.ReqPerS || got.LastByte.P99 != want.LastByte.P99 {
			t.Errorf("rateAndP99 %+v, Summarise's total %+v", got, want)
		}
	}
}
