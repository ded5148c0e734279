package workload

import (
	"cmp"
	"container/heap"
	"math"
	"math/bits"
	"slices"
)

// topK is the space-saving sketch (Metwally et al.): k counters for the
// most frequent keys of a stream. A key not counted takes the smallest
// counter's place and its count plus one, remembering that count as its
// possible overestimate. Memory is k counters whatever the stream; every
// key more frequent than N/k is held, with its count overestimated by at
// most N/k. Chosen over a count-min sketch because popularity needs the
// heavy hitters themselves, ranked, which count-min alone cannot list.
type topK struct {
	k     int
	index map[uint64]int // key -> position in heap
	heap  counters
}

// counter is one key's estimated count and its possible overestimate.
type counter struct {
	key        uint64
	count, err int64
}

func newTopK(k int) *topK {
	t := &topK{k: k, index: make(map[uint64]int, k)}
	t.heap.index = t.index
	return t
}

// add counts one occurrence of key.
func (t *topK) add(key uint64) {
	if i, ok := t.index[key]; ok {
		t.heap.c[i].count++
		heap.Fix(&t.heap, i)
		return
	}
	if len(t.heap.c) < t.k {
		heap.Push(&t.heap, counter{key: key, count: 1})
		return
	}
	m := &t.heap.c[0]
	delete(t.index, m.key)
	m.key, m.err = key, m.count
	m.count++
	t.index[key] = 0
	heap.Fix(&t.heap, 0)
}

// ranked returns the counters by count, highest first.
func (t *topK) ranked() []counter {
	out := slices.Clone(t.heap.c)
	slices.SortFunc(out, func(a, b counter) int {
		if a.count != b.count {
			return cmp.Compare(b.count, a.count)
		}
		return cmp.Compare(a.key, b.key)
	})
	return out
}

// counters is a min-heap of counters keeping index up to date.
type counters struct {
	c     []counter
	index map[uint64]int
}

func (h counters) Len() int           { return len(h.c) }
func (h counters) Less(i, j int) bool { return h.c[i].count < h.c[j].count }
func (h counters) Swap(i, j int) {
	h.c[i], h.c[j] = h.c[j], h.c[i]
	h.index[h.c[i].key], h.index[h.c[j].key] = i, j
}
func (h *counters) Push(x any) {
	c := x.(counter)
	h.index[c.key] = len(h.c)
	h.c = append(h.c, c)
}
func (h *counters) Pop() any {
	c := h.c[len(h.c)-1]
	h.c = h.c[:len(h.c)-1]
	delete(h.index, c.key)
	return c
}

// hll is a HyperLogLog counter of distinct keys (2^14 registers: 16 KiB,
// a standard error of about 0.8 %).
type hll struct{ reg [1 << hllBits]uint8 }

const hllBits = 14

// add counts key, a well-mixed 64-bit hash.
func (h *hll) add(key uint64) {
	i := key >> (64 - hllBits)
	rank := uint8(bits.LeadingZeros64(key<<hllBits|1<<(hllBits-1)) + 1)
	h.reg[i] = max(h.reg[i], rank)
}

// estimate returns the number of distinct keys added.
func (h *hll) estimate() float64 {
	m := float64(len(h.reg))
	sum, zeros := 0.0, 0
	for _, r := range h.reg {
		sum += math.Ldexp(1, -int(r))
		if r == 0 {
			zeros++
		}
	}
	e := 0.7213 / (1 + 1.079/m) * m * m / sum
	if e <= 2.5*m && zeros > 0 {
		e = m * math.Log(m/float64(zeros)) // linear counting for small sets
	}
	return e
}
