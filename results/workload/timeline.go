package workload

import "time"

// Ops are the methods a fit counts apart, in the order of its tables; any
// other method counts as OTHER.
var Ops = []string{"GET", "PUT", "HEAD", "DELETE", "POST", "COPY", "OTHER"}

// opIndex is m's place in Ops.
func opIndex(m string) int {
	for i, o := range Ops[:len(Ops)-1] {
		if o == m {
			return i
		}
	}
	return len(Ops) - 1
}

// maxBuckets bounds a timeline: past it, neighbours merge and the width
// doubles, so memory stays flat however long the logs.
const maxBuckets = 512

// bucket is one interval's client object requests by op, and its client
// requests of every kind.
type bucket struct {
	ops      [7]int64
	requests int64
}

// timeline counts requests in intervals from origin, starting at one
// second wide.
type timeline struct {
	origin  time.Time
	width   time.Duration
	buckets []bucket
}

// at returns the bucket of time t (a time before origin, from a file's
// slightly unordered lines, counts in the first).
func (tl *timeline) at(t time.Time) *bucket {
	if tl.width == 0 {
		tl.origin, tl.width = t, time.Second
	}
	i := max(int(t.Sub(tl.origin)/tl.width), 0)
	for i >= maxBuckets {
		tl.halve()
		i = int(t.Sub(tl.origin) / tl.width)
	}
	for len(tl.buckets) <= i {
		tl.buckets = append(tl.buckets, bucket{})
	}
	return &tl.buckets[i]
}

// halve merges neighbouring buckets and doubles the width.
func (tl *timeline) halve() {
	n := (len(tl.buckets) + 1) / 2
	for i := range n {
		b := tl.buckets[2*i]
		if 2*i+1 < len(tl.buckets) {
			o := tl.buckets[2*i+1]
			for k := range b.ops {
				b.ops[k] += o.ops[k]
			}
			b.requests += o.requests
		}
		tl.buckets[i] = b
	}
	tl.buckets = tl.buckets[:n]
	tl.width *= 2
}
