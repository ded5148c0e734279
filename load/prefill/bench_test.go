package prefill

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"benchbed/plan/scenario"
)

// synthList is a listing source that holds no names: it generates each
// container's objects from their positions, page by page, so that the
// benchmark measures the verifier's memory and not the source's.
type synthList struct{ l *Layout }

func (s synthList) List(_ context.Context, container, marker string, limit int, fn func(string, int64)) (int, error) {
	c := -1
	for i, name := range s.l.containers {
		if name == container {
			c = i
			break
		}
	}
	from := int64(0)
	if marker != "" {
		o, _ := s.l.Lookup(marker)
		from = s.l.position(o) + 1
	}
	n := 0
	for p := from; p < s.l.InContainer(c) && n < limit; p++ {
		o := s.l.At(int64(c) + p*int64(len(s.l.containers)))
		fn(o.Name, o.Size)
		n++
	}
	return n, nil
}

func (synthList) PutContainer(context.Context, string) error                { return nil }
func (synthList) PutObject(context.Context, string, string, int64) error    { return nil }
func (synthList) HeadObject(context.Context, string, string) (int64, error) { return 0, ErrNotFound }

// BenchmarkVerifyListing verifies a whole prefill by listing, for 100
// thousand to 10 million 64 KiB objects in 200 containers (seed 000's
// layout). It reports the peak heap in use while verifying, which must stay
// flat as the object count grows, and the listing requests made.
func BenchmarkVerifyListing(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000, 10_000_000} {
		b.Run(fmt.Sprintf("objects=%d", n), func(b *testing.B) {
			s := &scenario.Scenario{Name: "64K_get", Sizes: []scenario.Size{{Name: "64KiB", SizeMin: 65536, SizeMax: 65536}},
				InitialFiles: map[string]int{"64KiB": n}, ContainerBase: "base1_64K", ContainerCount: 200}
			l, err := NewLayout(s)
			if err != nil {
				b.Fatal(err)
			}
			src := synthList{l}
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			base := ms.HeapInuse
			var peak uint64
			var requests int64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				requests = 0
				for c := range l.Containers() {
					chk, err := l.CheckContainer(context.Background(), src, c)
					if err != nil || chk.Missing() != 0 {
						b.Fatalf("container %d: %v, %d missing", c, err, chk.Missing())
					}
					requests += chk.Requests
					if c%50 == 0 {
						runtime.ReadMemStats(&ms)
						peak = max(peak, ms.HeapInuse-min(base, ms.HeapInuse))
					}
				}
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(requests), "list-requests")
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "objects/s")
		})
	}
}
