package results

import (
	"fmt"
	"time"
)

// Recovery defaults: back within 20 % of before, for 5 s.
const (
	DefaultRecoveryBand    = 0.2
	DefaultRecoveryWindowS = 5
)

// RecoveryOptions say when a cell counts as recovered (Recovery).
type RecoveryOptions struct {
	Band    float64 // 0 = DefaultRecoveryBand
	WindowS int     // 0 = DefaultRecoveryWindowS
	Gate    float64 // the error-rate gate (the workload's or the sweep's)
}

// Split divides a cell's per-second recordings into the phases of its
// fault window. Add the intervals in index order (each merged over the
// agents); memory holds three phase recordings, one small Second per
// interval and the last WindowS intervals, whatever the requests.
type Split struct {
	w        Window
	interval time.Duration
	opts     RecoveryOptions
	phases   [3]Recording
	seconds  []Second
	last     int
	recent   []Recording // the last WindowS intervals of the after phase
	recentAt int         // index of recent[0]
	rec      *Recovery
	before   OpSummary // before's total, known once the after phase starts
}

// NewSplit returns a Split of a run recorded in intervals of interval
// (the agents' 1 s) around window w.
func NewSplit(w Window, interval time.Duration, opts RecoveryOptions) *Split {
	if opts.Band <= 0 {
		opts.Band = DefaultRecoveryBand
	}
	if opts.WindowS <= 0 {
		opts.WindowS = DefaultRecoveryWindowS
	}
	if interval <= 0 {
		interval = time.Second
	}
	return &Split{w: w, interval: interval, opts: opts, last: -1,
		phases: [3]Recording{{}, {}, {}}, rec: &Recovery{Band: opts.Band, WindowS: opts.WindowS, Gate: opts.Gate}}
}

// phaseOf is the phase of interval i: during when it overlaps the window.
func (s *Split) phaseOf(i int) int {
	start, end := time.Duration(i)*s.interval, time.Duration(i+1)*s.interval
	switch {
	case end <= s.w.Start:
		return 0
	case start < s.w.End:
		return 1
	}
	return 2
}

// Add adds interval index's recording. Intervals must come in increasing
// order; one out of order is an error.
func (s *Split) Add(index int, r Recording) error {
	if index <= s.last {
		return fmt.Errorf("interval %d after interval %d", index, s.last)
	}
	s.last = index
	p := s.phaseOf(index)
	s.phases[p].Merge(r)
	sum := rateAndP99(r, s.interval)
	s.seconds = append(s.seconds, Second{Index: index, ReqPerS: sum.ReqPerS, Errors: sum.Errors,
		P99: sum.LastByte.P99, Phase: []string{PhaseBefore, PhaseDuring, PhaseAfter}[p]})
	if p == 2 {
		s.recover(index, r)
	}
	return nil
}

// recover keeps the last WindowS intervals of the after phase and marks
// the recovery at the first window that is back.
func (s *Split) recover(index int, r Recording) {
	if s.rec.Recovered {
		return
	}
	if len(s.recent) == 0 {
		s.before = Summarise(s.phases[0], s.w.Start).Total
	}
	if len(s.recent) > 0 && index != s.recentAt+len(s.recent) { // a gap: no interval, no operations
		s.recent, s.recentAt = nil, index
	}
	if len(s.recent) == 0 {
		s.recentAt = index
	}
	s.recent = append(s.recent, r)
	if len(s.recent) > s.opts.WindowS {
		s.recent, s.recentAt = s.recent[1:], s.recentAt+1
	}
	if len(s.recent) < s.opts.WindowS {
		return
	}
	win := Recording{}
	for _, x := range s.recent {
		win.Merge(x)
	}
	t := rateAndP99(win, time.Duration(s.opts.WindowS)*s.interval)
	b := s.before
	if b.ReqPerS == 0 {
		return
	}
	rateOK := t.ReqPerS >= b.ReqPerS*(1-s.opts.Band) && t.ReqPerS <= b.ReqPerS*(1+s.opts.Band)
	p99OK := t.LastByte.P99 <= b.LastByte.P99*(1+s.opts.Band)
	if rateOK && p99OK && t.ErrorRate() <= s.opts.Gate {
		at := time.Duration(s.recentAt)*s.interval - s.w.End
		s.rec.Recovered, s.rec.AfterS = true, max(0, at.Seconds())
	}
}

// Close returns the phases of a run of duration run.
func (s *Split) Close(run time.Duration) FaultPhases {
	bounds := [4]time.Duration{0, min(s.w.Start, run), min(s.w.End, run), run}
	fp := FaultPhases{Window: s.w, StartS: s.w.Start.Seconds(), EndS: s.w.End.Seconds(), Recovery: *s.rec, Seconds: s.seconds}
	for i, name := range []string{PhaseBefore, PhaseDuring, PhaseAfter} {
		d := bounds[i+1] - bounds[i]
		if d <= 0 {
			continue
		}
		c := Summarise(s.phases[i], d)
		fp.Phases = append(fp.Phases, Phase{Name: name, StartS: bounds[i].Seconds(), EndS: bounds[i+1].Seconds(), Ops: c.Ops, Total: c.Total})
	}
	if b, d := fp.Phase(PhaseBefore), fp.Phase(PhaseDuring); b != nil && d != nil {
		fp.Degradation = degradation(b.Total, d.Total)
	}
	return fp
}

// Gate checks the phases' error rates: before and after against gate,
// during against duringMax when the workload sets one (else errors while
// a fault lasts are data). A corrupt read fails any phase, the during one
// too: a fault may make Swift fail a request, never answer wrong data. It
// returns the first failure, naming the phase.
func (fp *FaultPhases) Gate(gate float64, duringMax *float64) *GateError {
	for _, p := range fp.Phases {
		if n := p.Total.ErrorsBy[CauseCorrupt]; n > 0 {
			c := Cell{Total: p.Total, Ops: p.Ops}
			return &GateError{Phase: p.Name, Rate: p.Total.ErrorRate(), Errors: p.Total.Errors, Ops: p.Total.Count + p.Total.Errors, Causes: TopCauses(c, 3), Corrupt: n}
		}
		max := gate
		if p.Name == PhaseDuring {
			if duringMax == nil {
				continue
			}
			max = *duringMax
		}
		rate := p.Total.ErrorRate()
		if p.Total.Errors > 0 && rate > max {
			c := Cell{Total: p.Total, Ops: p.Ops}
			return &GateError{Phase: p.Name, Rate: rate, Max: max, Errors: p.Total.Errors, Ops: p.Total.Count + p.Total.Errors, Causes: TopCauses(c, 3)}
		}
	}
	return nil
}

// CauseCorrupt is the error cause of a verified read whose body differed
// from what was written (load's verifier names it so).
const CauseCorrupt = "corrupt"

// rateAndP99 is the part of Summarise(r, d).Total that a second's figures
// and the recovery's window need: count, errors, req/s and the last
// byte's p99 (the same values). Summarise's every statistic of every
// operation, twice a second, took most of a fault cell's split.
func rateAndP99(r Recording, d time.Duration) OpSummary {
	var s OpSummary
	last := NewHist()
	for _, h := range r {
		s.Count += h.LastByte.Count()
		s.Errors += h.ErrorCount()
		last.Merge(h.LastByte)
	}
	if d > 0 {
		s.ReqPerS = float64(s.Count) / d.Seconds()
	}
	if s.Count > 0 {
		s.LastByte.P99 = float64(last.h.ValueAtQuantile(99)) / 1e6
	}
	return s
}
