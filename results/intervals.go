package results

import "math"

// IntervalMerge is the watermark merge of N agents' interval streams that
// Seconds and the metrics stream share: each stream's latest interval is
// kept, the intervals some stream has not reported yet are pending by
// index (T accumulates what the streams reported of one), and interval i
// is told (Next) once every stream has reported it or a later one, or
// ended. Only pending intervals are kept: memory does not grow with the
// run's length. It is not safe for concurrent use.
type IntervalMerge[T any] struct {
	latest  []int // by stream: the highest interval reported (math.MaxInt once ended)
	pending map[int]T
	next    int // the next interval to tell
	top     int // the highest interval any stream reported
}

// NewIntervalMerge returns a merge of n streams, none of which has
// reported anything.
func NewIntervalMerge[T any](n int) *IntervalMerge[T] {
	m := &IntervalMerge[T]{latest: make([]int, n), pending: map[int]T{}, top: -1}
	for i := range m.latest {
		m.latest[i] = -1
	}
	return m
}

// Streams is the number of streams merged.
func (m *IntervalMerge[T]) Streams() int { return len(m.latest) }

// Interval records that stream reported interval index and returns the
// interval's accumulator, made by mk when index is new, for the caller to
// add the stream's figures to. ok is false, and nothing is recorded, for
// a stream out of range or an index already told or beyond a month of
// seconds (a broken stream cannot make the pending intervals grow).
func (m *IntervalMerge[T]) Interval(stream, index int, mk func() T) (acc T, ok bool) {
	if stream < 0 || stream >= len(m.latest) || index < m.next || index > maxIntervals {
		return acc, false
	}
	acc, ok = m.pending[index]
	if !ok {
		acc = mk()
		m.pending[index] = acc
	}
	m.latest[stream] = max(m.latest[stream], index)
	m.top = max(m.top, index)
	return acc, true
}

// End marks stream ended (its done or error event): it no longer holds
// the intervals back. A stream out of range is ignored.
func (m *IntervalMerge[T]) End(stream int) {
	if stream >= 0 && stream < len(m.latest) {
		m.latest[stream] = math.MaxInt
	}
}

// EndAll marks every stream ended: every pending interval can be told.
func (m *IntervalMerge[T]) EndAll() {
	for i := range m.latest {
		m.latest[i] = math.MaxInt
	}
}

// Next returns, and forgets, the next interval that every stream has gone
// past, in index order; an index no stream reported is skipped. ok is
// false when there is none (yet).
func (m *IntervalMerge[T]) Next() (acc T, ok bool) {
	low := math.MaxInt
	for _, l := range m.latest {
		low = min(low, l)
	}
	for m.next <= low && m.next <= m.top {
		acc, ok = m.pending[m.next]
		delete(m.pending, m.next)
		m.next++
		if ok {
			return acc, true
		}
	}
	return acc, false
}
