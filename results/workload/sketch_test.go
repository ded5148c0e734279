package workload

import (
	"benchbed/plan/proxylog"
	"math"
	"testing"
)

func TestHLLCountsDistinct(t *testing.T) {
	for _, n := range []int{10, 1000, 100000, 1000000} {
		var h hll
		for i := range n {
			h.add(proxylog.Hash("a", "c", string(rune(i%7+'a')), itoa(i)))
			h.add(proxylog.Hash("a", "c", string(rune(i%7+'a')), itoa(i))) // twice: counted once
		}
		if e := h.estimate(); math.Abs(e-float64(n)) > 0.03*float64(n)+1 {
			t.Errorf("%d distinct: estimated %.0f", n, e)
		}
	}
}

func TestTopKKeepsHeavyHitters(t *testing.T) {
	k := newTopK(100)
	// key i occurs 1000/i times for i <= 50, then 10000 keys once each.
	for i := 1; i <= 50; i++ {
		for range 1000 / i {
			k.add(uint64(i))
		}
	}
	for i := range 10000 {
		k.add(uint64(1000 + i))
	}
	r := k.ranked()
	for i := 1; i <= 5; i++ {
		if r[i-1].key != uint64(i) || r[i-1].count-r[i-1].err > int64(1000/i) || r[i-1].count < int64(1000/i) {
			t.Errorf("rank %d: %+v, want key %d counted %d (an overestimate bounded by err)", i, r[i-1], i, 1000/i)
		}
	}
	if len(k.index) != 100 || len(k.heap.c) != 100 {
		t.Errorf("%d keys held, want 100", len(k.index))
	}
}

func TestTimelineStaysBounded(t *testing.T) {
	var tl timeline
	var start = int64(1796432523)
	for s := range int64(100000) {
		tl.at(unix(start+s)).requests++
	}
	var n int64
	for _, b := range tl.buckets {
		n += b.requests
	}
	if len(tl.buckets) > maxBuckets || n != 100000 || tl.width.Seconds() != 256 {
		t.Errorf("%d buckets of %v, %d requests", len(tl.buckets), tl.width, n)
	}
}
