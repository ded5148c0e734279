package workload_test

import (
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"benchbed/plan/proxylog"
	"benchbed/results/workload"
)

// TestFitMemoryFlat fits a synthetic log generated as it is read (never
// stored) and checks that the live heap after the last line is no larger
// than after the first quarter, once the bounded structures are full:
// memory does not grow with the lines. BENCHBED_FIT_LINES sets the lines
// (bench/proxylog/run: 20 million); the rate is logged, never judged.
func TestFitMemoryFlat(t *testing.T) {
	lines := int64(1_000_000)
	if v := os.Getenv("BENCHBED_FIT_LINES"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1000 {
			t.Fatalf("BENCHBED_FIT_LINES=%q: want a count of at least 1000", v)
		}
		lines = n
	} else if testing.Short() {
		lines = 200_000
	}
	s := known(lines)
	s.Objects, s.Zipf, s.GarbleEvery = 10_000_000, 0.9, 10_000
	tp, _ := proxylog.Compile(proxylog.DefaultTemplate)
	r, err := proxylog.NewReader(tp, proxylog.Input{Name: s.Name, R: s.Reader()})
	if err != nil {
		t.Fatal(err)
	}
	opts := workload.Options{}
	if os.Getenv("BENCHBED_FIT_LINES") == "" {
		opts.TrackPuts = 1 << 12 // full within the first quarter of a short run
	}
	f := workload.New(opts)
	var quarter, end runtime.MemStats
	began := time.Now()
	var n int64
	for rec, ok := r.Next(); ok; rec, ok = r.Next() {
		f.Add(rec)
		if n++; n == lines/4 {
			runtime.GC()
			runtime.ReadMemStats(&quarter)
		}
	}
	took := time.Since(began)
	runtime.GC()
	runtime.ReadMemStats(&end)
	fit := f.Fit(r.Stats())
	const slack = 4 << 20
	t.Logf("%d lines (%d records) in %v: %.0f lines/s; live heap %.1f MiB after a quarter, %.1f MiB at the end; lifetimes forgot %d PUTs",
		r.Stats().Lines, fit.Records, took.Round(time.Millisecond), float64(r.Stats().Lines)/took.Seconds(),
		float64(quarter.HeapAlloc)/(1<<20), float64(end.HeapAlloc)/(1<<20), fit.Lifetimes.Forgotten)
	if r.Stats().Lines != lines || fit.Lifetimes.Forgotten == 0 {
		t.Errorf("read %d lines of %d, forgot %d PUTs: the bounded map was never full", r.Stats().Lines, lines, fit.Lifetimes.Forgotten)
	}
	if end.HeapAlloc > quarter.HeapAlloc+slack {
		t.Errorf("live heap grew from %d to %d bytes over the last three quarters of the lines", quarter.HeapAlloc, end.HeapAlloc)
	}
}
