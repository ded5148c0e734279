package results

import (
	"math"
	"slices"
	"testing"
)

// sums is an IntervalMerge of int sums, each told sum collected.
type sums struct {
	m    *IntervalMerge[*int]
	told []int
}

func (s *sums) add(stream, index, v int) bool {
	acc, ok := s.m.Interval(stream, index, func() *int { return new(int) })
	if ok {
		*acc += v
	}
	s.flush()
	return ok
}

func (s *sums) flush() {
	for acc, ok := s.m.Next(); ok; acc, ok = s.m.Next() {
		s.told = append(s.told, *acc)
	}
}

// TestIntervalMergeTwoStreamsOutOfStep: stream 0 runs three intervals
// ahead of stream 1; each interval is told, with both streams' figures,
// as the slower one passes it, in order; an index only the faster one
// reported is told with its figures alone once the slower one skips it.
func TestIntervalMergeTwoStreamsOutOfStep(t *testing.T) {
	s := &sums{m: NewIntervalMerge[*int](2)}
	for i := range 4 {
		s.add(0, i, 1)
	}
	if len(s.told) != 0 {
		t.Fatalf("told %v before stream 1 reported anything", s.told)
	}
	s.add(1, 0, 10)
	if !slices.Equal(s.told, []int{11}) {
		t.Fatalf("after stream 1's interval 0: %v, want [11]", s.told)
	}
	s.add(1, 2, 20) // stream 1 skips 1: it has passed both 1 and 2
	if !slices.Equal(s.told, []int{11, 1, 21}) {
		t.Fatalf("after stream 1's interval 2: %v, want [11 1 21]", s.told)
	}
	s.add(1, 5, 50) // stream 0 holds 4 and 5 back
	if !slices.Equal(s.told, []int{11, 1, 21, 1}) {
		t.Fatalf("after stream 1's interval 5: %v, want [11 1 21 1]", s.told)
	}
	s.add(0, 5, 5) // index 4: no stream reported it, skipped
	if !slices.Equal(s.told, []int{11, 1, 21, 1, 55}) {
		t.Fatalf("after stream 0's interval 5: %v, want [11 1 21 1 55]", s.told)
	}
}

// TestIntervalMergeStreamEndingEarly: a stream that ends no longer holds
// the others back, and EndAll tells whatever is pending.
func TestIntervalMergeStreamEndingEarly(t *testing.T) {
	s := &sums{m: NewIntervalMerge[*int](3)}
	s.add(0, 0, 1)
	s.add(1, 0, 2)
	s.add(1, 1, 2)
	s.add(2, 0, 4)
	if !slices.Equal(s.told, []int{7}) {
		t.Fatalf("told %v, want [7]", s.told)
	}
	s.m.End(2) // done after one interval
	s.add(0, 1, 1)
	if !slices.Equal(s.told, []int{7, 3}) {
		t.Fatalf("after stream 2 ended: %v, want [7 3]", s.told)
	}
	s.add(0, 2, 1)
	s.add(0, 3, 1)
	if len(s.told) != 2 {
		t.Fatalf("told %v while stream 1 is at 1", s.told)
	}
	s.m.EndAll()
	s.flush()
	if !slices.Equal(s.told, []int{7, 3, 1, 1}) {
		t.Fatalf("after EndAll: %v, want [7 3 1 1]", s.told)
	}
}

// TestIntervalMergeRefuses: an interval told already, one beyond a month
// of seconds and a stream out of range are refused and change nothing.
func TestIntervalMergeRefuses(t *testing.T) {
	s := &sums{m: NewIntervalMerge[*int](1)}
	s.add(0, 0, 1)
	s.add(0, 1, 2)
	for _, c := range []struct{ stream, index int }{{0, 0}, {0, maxIntervals + 1}, {1, 2}, {-1, 2}, {0, -1}} {
		if s.add(c.stream, c.index, 100) {
			t.Errorf("stream %d's interval %d taken", c.stream, c.index)
		}
	}
	s.m.End(5) // out of range: ignored
	if got := len(s.m.pending); got != 0 || !slices.Equal(s.told, []int{1, 2}) || s.m.Streams() != 1 {
		t.Errorf("told %v, %d pending, want [1 2] and none", s.told, got)
	}
	if s.m.latest[0] != 1 {
		t.Errorf("stream 0 at %d, want 1", s.m.latest[0])
	}
	s.m.End(0)
	if s.m.latest[0] != math.MaxInt {
		t.Errorf("stream 0 not ended")
	}
	if !s.add(0, maxIntervals, 1) || !slices.Equal(s.told, []int{1, 2, 1}) {
		t.Errorf("the last interval allowed: told %v", s.told)
	}
}

// TestIntervalMergeNoStreams: a merge of no streams takes nothing.
func TestIntervalMergeNoStreams(t *testing.T) {
	s := &sums{m: NewIntervalMerge[*int](0)}
	if s.add(0, 0, 1) {
		t.Error("stream 0 of none taken")
	}
	s.m.EndAll()
	s.flush()
	if len(s.told) != 0 {
		t.Errorf("told %v", s.told)
	}
}
