package workload_test

import (
	"bytes"
	"io"
	"testing"

	"benchbed/plan/proxylog"
	"benchbed/results/workload"
)

// BenchmarkFitLines measures reading and fitting alone: 100,000 lines
// generated once into memory, then parsed and fitted b.N times over.
// bench/proxylog/run turns its ns/op into lines a second.
func BenchmarkFitLines(b *testing.B) {
	data, err := io.ReadAll(known(100_000).Reader())
	if err != nil {
		b.Fatal(err)
	}
	tp, _ := proxylog.Compile(proxylog.DefaultTemplate)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		r, err := proxylog.NewReader(tp, proxylog.Input{Name: "b", R: bytes.NewReader(data)})
		if err != nil {
			b.Fatal(err)
		}
		f := workload.New(workload.Options{})
		for rec, ok := r.Next(); ok; rec, ok = r.Next() {
			f.Add(rec)
		}
		_ = f.Fit(r.Stats())
	}
}
