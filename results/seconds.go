package results

// Seconds merges the agents' interval events into one series of
// intervals for all agents, in order: interval i is told once every
// stream has reported it (or a later one, or ended), with the successful
// operations per second of all agents and the first-byte p99 of all their
// operations (seconds; 0 when none succeeded). It feeds results.Steady and
// Precision during a run from many agents (MergeStreamsEach's each).
// Only the intervals some agent has not reported yet are kept
// (IntervalMerge).
type Seconds struct {
	fn    func(reqPerS, p99 float64)
	merge *IntervalMerge[*secondAcc]
}

type secondAcc struct {
	fb  *Hist
	dur float64 // the longest agent's interval, seconds
}

// NewSeconds returns a Seconds over n streams telling fn each interval.
func NewSeconds(n int, fn func(reqPerS, p99 float64)) *Seconds {
	return &Seconds{fn: fn, merge: NewIntervalMerge[*secondAcc](n)}
}

// newSecondAcc is an interval no agent has added to yet.
func newSecondAcc() *secondAcc { return &secondAcc{fb: NewHist()} }

// Add takes one event of stream (others than interval, done and error
// are ignored).
func (s *Seconds) Add(stream int, ev AgentEvent) {
	switch ev.Type {
	case "done", "error":
		s.merge.End(stream)
	case "interval":
		sec, ok := s.merge.Interval(stream, ev.Index, newSecondAcc)
		if !ok {
			return
		}
		for _, h := range ev.Ops {
			if h != nil && h.FirstByte != nil {
				sec.fb.Merge(h.FirstByte)
			}
		}
		sec.dur = max(sec.dur, ev.End.Sub(ev.Start).Seconds())
	default:
		return
	}
	s.flush()
}

// flush tells the intervals every stream has gone past.
func (s *Seconds) flush() {
	for sec, ok := s.merge.Next(); ok; sec, ok = s.merge.Next() {
		// A short stub (the end of a run) would skew the rate.
		if sec.dur < minLiveInterval {
			continue
		}
		var p99 float64
		if sec.fb.Count() > 0 {
			p99 = sec.fb.Quantile(0.99).Seconds()
		}
		s.fn(float64(sec.fb.Count())/sec.dur, p99)
	}
}
