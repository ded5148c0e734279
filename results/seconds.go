package results

import "math"

// Seconds merges the agents' interval events into one series of
// intervals for all agents, in order: interval i is told once every
// stream has reported it (or a later one, or ended), with the successful
// operations per second of all agents and the first-byte p99 of all their
// operations (seconds; 0 when none succeeded). It feeds results.Steady and
// Precision during a run from many agents (MergeStreamsEach's each).
// Only the intervals some agent has not reported yet are kept.
type Seconds struct {
	fn      func(reqPerS, p99 float64)
	latest  []int // by stream: the highest interval reported (math.MaxInt once ended)
	pending map[int]*secondAcc
	next    int // the next interval to tell
	top     int // the highest interval any stream reported
}

type secondAcc struct {
	fb  *Hist
	dur float64 // the longest agent's interval, seconds
}

// NewSeconds returns a Seconds over n streams telling fn each interval.
func NewSeconds(n int, fn func(reqPerS, p99 float64)) *Seconds {
	s := &Seconds{fn: fn, latest: make([]int, n), pending: map[int]*secondAcc{}, top: -1}
	for i := range s.latest {
		s.latest[i] = -1
	}
	return s
}

// Add takes one event of stream (others than interval, done and error
// are ignored).
func (s *Seconds) Add(stream int, ev AgentEvent) {
	if stream < 0 || stream >= len(s.latest) {
		return
	}
	switch ev.Type {
	case "done", "error":
		s.latest[stream] = math.MaxInt
	case "interval":
		if ev.Index < s.next || ev.Index > maxIntervals {
			return
		}
		sec := s.pending[ev.Index]
		if sec == nil {
			sec = &secondAcc{fb: NewHist()}
			s.pending[ev.Index] = sec
		}
		for _, h := range ev.Ops {
			if h != nil && h.FirstByte != nil {
				sec.fb.Merge(h.FirstByte)
			}
		}
		sec.dur = max(sec.dur, ev.End.Sub(ev.Start).Seconds())
		s.latest[stream] = max(s.latest[stream], ev.Index)
		s.top = max(s.top, ev.Index)
	default:
		return
	}
	s.flush()
}

// flush tells the intervals every stream has gone past.
func (s *Seconds) flush() {
	low := math.MaxInt
	for _, l := range s.latest {
		low = min(low, l)
	}
	for s.next <= low && s.next <= s.top {
		sec := s.pending[s.next]
		delete(s.pending, s.next)
		s.next++
		// A short stub (the end of a run) would skew the rate.
		if sec == nil || sec.dur < minLiveInterval {
			continue
		}
		var p99 float64
		if sec.fb.Count() > 0 {
			p99 = sec.fb.Quantile(0.99).Seconds()
		}
		s.fn(float64(sec.fb.Count())/sec.dur, p99)
	}
}
