package results

import (
	"encoding/json"
	"math"
	"testing"
	"time"
)

// within reports whether got is within HDR's 3-significant-digit precision
// of want (0.1%, plus one microsecond).
func within(got, want float64) bool {
	return math.Abs(got-want) <= want*0.001+1e-6
}

func TestHistStats(t *testing.T) {
	h := NewHist()
	for i := 1; i <= 1000; i++ { // 1 ms .. 1000 ms
		h.Record(time.Duration(i) * time.Millisecond)
	}
	s := h.Stats()
	checks := []struct {
		name      string
		got, want float64
	}{
		{"min", s.Min, 0.001}, {"max", s.Max, 1.0}, {"mean", s.Mean, 0.5005},
		{"p50", s.P50, 0.5}, {"p95", s.P95, 0.95}, {"p99", s.P99, 0.99}, {"p999", s.P999, 0.999},
		{"stddev", s.StdDev, 0.288675},
	}
	for _, c := range checks {
		if !within(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if h.Count() != 1000 {
		t.Errorf("count = %d", h.Count())
	}
}

func TestHistClampsOutOfRange(t *testing.T) {
	h := NewHist()
	h.Record(0)
	h.Record(2 * time.Hour)
	if h.Count() != 2 {
		t.Fatalf("count = %d, want 2 (nothing dropped)", h.Count())
	}
	if s := h.Stats(); s.Min != 1e-6 || !within(s.Max, 3600) {
		t.Errorf("min %v max %v, want 1e-6 and 3600", s.Min, s.Max)
	}
}

func TestEmptyStatsAreZero(t *testing.T) {
	if s := NewHist().Stats(); s != (Stats{}) {
		t.Errorf("empty stats = %+v", s)
	}
}

func TestRecordingJSONRoundTripAndMerge(t *testing.T) {
	a, b := Recording{"GET": NewOpHists()}, Recording{"GET": NewOpHists(), "PUT": NewOpHists()}
	for i := 0; i < 100; i++ {
		a["GET"].FirstByte.Record(10 * time.Millisecond)
		a["GET"].LastByte.Record(12 * time.Millisecond)
		b["GET"].LastByte.Record(30 * time.Millisecond)
	}
	b["PUT"].Errors["http_503"] = 3
	b["PUT"].Retries = 2
	data, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var back Recording
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	a.Merge(back)
	if n := a["GET"].LastByte.Count(); n != 200 {
		t.Errorf("merged GET count = %d, want 200", n)
	}
	if q := a["GET"].LastByte.Quantile(0.75); q < 29*time.Millisecond || q > 31*time.Millisecond {
		t.Errorf("merged GET p75 = %v, want about 30ms", q)
	}
	if a["PUT"].ErrorCount() != 3 || a["PUT"].Retries != 2 {
		t.Errorf("merged PUT = %+v", a["PUT"])
	}
}

func TestHistUnmarshalRejectsGarbage(t *testing.T) {
	var h Hist
	for _, in := range []string{`12`, `"not base64!"`, `"aGVsbG8="`} {
		if err := json.Unmarshal([]byte(in), &h); err == nil {
			t.Errorf("%s: no error", in)
		}
	}
}

func TestSummarise(t *testing.T) {
	r := Recording{"GET": NewOpHists(), "PUT": NewOpHists()}
	for i := 0; i < 50; i++ {
		r["GET"].FirstByte.Record(time.Millisecond)
		r["GET"].LastByte.Record(2 * time.Millisecond)
	}
	r["PUT"].Errors["transport_timeout"] = 5
	c := Summarise(r, 10*time.Second)
	if c.Ops["GET"].Count != 50 || c.Ops["GET"].ReqPerS != 5 {
		t.Errorf("GET = %+v", c.Ops["GET"])
	}
	if c.Total.Count != 50 || c.Total.Errors != 5 || c.Total.ErrorsBy["transport_timeout"] != 5 {
		t.Errorf("total = %+v", c.Total)
	}
	if c.DurationS != 10 {
		t.Errorf("duration = %v", c.DurationS)
	}
}
