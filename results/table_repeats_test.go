package results

import (
	"bytes"
	"math"
	"testing"

	"benchbed/internal/golden"
)

// repeatRuns are three repeats' totals with known figures.
func repeatRuns() []OpSummary {
	op := func(rps, p95 float64, errs int64) OpSummary {
		return OpSummary{ReqPerS: rps, Errors: errs,
			FirstByte: Stats{Min: 0.001, Max: 0.3, Mean: 0.02, StdDev: 0.01, P50: 0.015, P95: p95, P99: 0.1, P999: 0.2}}
	}
	return []OpSummary{op(90, 0.030, 0), op(100, 0.040, 1), op(110, 0.050, 2)}
}

func TestRepeatStats(t *testing.T) {
	s := RepeatRow{Runs: repeatRuns()}.Stats()
	if s.N != 3 || s.ReqPerS != 100 || s.ReqMin != 90 || s.ReqMax != 110 || s.Errors != 3 {
		t.Errorf("stats %+v", s)
	}
	if math.Abs(s.ReqStdDev-10) > 1e-9 { // sample stddev of 90, 100, 110
		t.Errorf("stddev %v, want 10", s.ReqStdDev)
	}
	if math.Abs(s.FirstByte.P95-0.040) > 1e-12 || math.Abs(s.FirstByte.Mean-0.02) > 1e-12 {
		t.Errorf("first byte %+v", s.FirstByte)
	}
	one := RepeatRow{Runs: repeatRuns()[:1]}.Stats()
	if one.ReqStdDev != 0 || one.ReqPerS != 90 {
		t.Errorf("one repeat: %+v", one)
	}
	if none := (RepeatRow{Failed: 2}).Stats(); none.N != 0 || none.ReqPerS != 0 {
		t.Errorf("no repeat: %+v", none)
	}
}

func TestRepeatTableGolden(t *testing.T) {
	rows := []RepeatRow{
		{Label: "normal / containers=1", Runs: repeatRuns()},
		{Label: "normal / containers=32", Runs: repeatRuns()[1:], Failed: 1},
		{Label: "normal / containers=64", Failed: 3},
	}
	var buf bytes.Buffer
	if err := WriteRepeatTable(&buf, "put 1 B", rows); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "repeats.table", buf.Bytes())
}
