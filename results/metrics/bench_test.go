package metrics

import (
	"testing"
	"time"

	"github.com/golang/snappy"
)

// BenchmarkStreamOneSecond is the CPU a second of streaming costs the
// process that streams: one merged interval of two operations turned into
// points (interval and so-far figures) and encoded for remote write
// (snappy included) and as line protocol, what --remote-write and
// --influx add each second whatever the request rate.
func BenchmarkStreamOneSecond(b *testing.B) {
	r := rec(5000, 3*time.Millisecond, 2)
	r["PUT"] = rec(500, 20*time.Millisecond, 0)["GET"]
	var pts []Point
	a := NewAggregator(func(p []Point) { pts = p })
	t0 := time.Unix(1000, 0)
	a.Phase(State{Run: "r", Testbed: "tb", Variant: "v", Workload: "w", Cell: "c", Phase: PhaseRun}, []string{"http://p1:8080/auth/v1.0"}, t0)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		at := t0.Add(time.Duration(i) * time.Second)
		a.Interval(0, i, at, at.Add(time.Second), r)
		_ = snappy.Encode(nil, EncodeWriteRequest(pts))
		if _, err := EncodeLines(pts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(pts)), "points/s")
}
