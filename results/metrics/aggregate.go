package metrics

import (
	"maps"
	"slices"
	"sync"
	"time"

	"benchbed/results"
)

// Aggregator merges the interval events of a phase's agent streams into
// per-interval points on a results.IntervalMerge, as results.Seconds does
// for the live figures: interval i is told once every stream has reported
// it (or a later one, or ended). Only the intervals some stream has not
// reported yet are kept, and per endpoint and operation one histogram
// pair of the phase so far: memory does not grow with the requests. Its
// methods may be called from any goroutine; send is called with each
// interval's points, in order, and must not block (Exporter.Send does
// not). Before its first Phase it takes no event.
type Aggregator struct {
	mu        sync.Mutex
	send      func([]Point)
	state     State
	base      []Label  // state's labels
	eps       []string // endpoint label by stream
	intervals *results.IntervalMerge[*pendingInterval]
	sofar     map[string]results.Recording // by endpoint: the phase so far
	elapsed   float64                      // seconds of the phase's intervals told
	free      []*results.OpHists           // emptied histograms of intervals told, for the next ones
	// PhaseOf, when set, names the phase of an interval from its start
	// (a finished fault cell's windows, ExportRun's): an interval of
	// another phase than the current one relabels it first.
	PhaseOf func(start time.Time) string
}

type pendingInterval struct {
	recs map[string]results.Recording // by endpoint label
	// borrowed: recs holds the event's own recording (one stream: the
	// interval is told before Event returns), not the free list's.
	borrowed bool
	dur      float64
	start    time.Time // the earliest stream's
	end      time.Time
}

// NewAggregator returns an Aggregator handing its points to send.
func NewAggregator(send func([]Point)) *Aggregator {
	return &Aggregator{send: send, intervals: results.NewIntervalMerge[*pendingInterval](0)}
}

// Phase ends the current phase (its pending intervals are told as they
// are) and starts s, whose streams' endpoints are endpoints (stream i's
// is endpoints[i], a URL made a label by EndpointLabel; nil or short: no
// endpoint label). It sends the state's point at once, so that a phase
// with no interval still shows.
func (a *Aggregator) Phase(s State, endpoints []string, at time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.endAll()
	a.state, a.base = s, s.labels()
	a.eps = make([]string, len(endpoints))
	for i, e := range endpoints {
		a.eps[i] = EndpointLabel(e)
	}
	a.intervals = results.NewIntervalMerge[*pendingInterval](max(len(endpoints), 1))
	a.resetSofar()
	a.send(a.statePoints(at))
}

// Measured tells every pending interval of the current phase and sends
// its "so far" figures once more at at, over d: the phase's duration as
// the load measured it, by which the cell's summary divides. The sum of
// the intervals' own durations differs from it by what the last, partial
// interval and the intervals' edges take (1 % in a 3 s run on a loaded
// machine), so that the series' last point is the summary's req/s. It
// sends no state point: the End that follows (a sweep's, in the same
// millisecond) would share its time, and a receiver could not tell which
// came last.
func (a *Aggregator) Measured(d time.Duration, at time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.endAll()
	if d <= 0 || len(a.sofar) == 0 {
		return
	}
	var pts []Point
	for _, ep := range slices.Sorted(maps.Keys(a.sofar)) {
		pts = appendRecording(pts, a.base, ep, a.sofar[ep], d.Seconds(), at, true)
		pts = append(pts, Point{Name: SeriesPhaseElapsed, Labels: labelSet(a.base, LabelEndpoint, ep), Value: d.Seconds(), Time: at})
	}
	a.send(pts)
}

// End tells every pending interval of the current phase (its streams are
// over) and sends an idle state.
func (a *Aggregator) End(at time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.endAll()
	a.state.Phase, a.state.Rate = PhaseIdle, 0
	a.base = a.state.labels()
	a.send(a.statePoints(at))
}

// endAll marks every stream ended and flushes.
func (a *Aggregator) endAll() {
	a.intervals.EndAll()
	a.flush()
}

// Event takes one event of stream (an agent's, in the merge's order):
// intervals are merged, done and error end the stream, others are
// ignored.
func (a *Aggregator) Event(stream int, ev results.AgentEvent) {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch ev.Type {
	case "done", "error":
		a.intervals.End(stream)
	case "interval":
		a.interval(stream, ev)
	default:
		return
	}
	a.flush()
}

// Interval is Event for an in-process run (load.Config.OnInterval's
// figures): stream's interval index from start to end.
func (a *Aggregator) Interval(stream, index int, start, end time.Time, r results.Recording) {
	a.Event(stream, results.AgentEvent{Type: "interval", Index: index, Start: start, End: end, Ops: r})
}

func (a *Aggregator) interval(stream int, ev results.AgentEvent) {
	p, ok := a.intervals.Interval(stream, ev.Index, newPendingInterval)
	if !ok {
		return
	}
	ep := a.endpoint(stream)
	switch {
	case a.intervals.Streams() == 1 && len(p.recs) == 0:
		p.recs[ep], p.borrowed = ev.Ops, true
	case p.recs[ep] == nil:
		p.recs[ep] = results.Recording{}
		fallthrough
	default:
		a.merge(p.recs[ep], ev.Ops)
	}
	p.dur = max(p.dur, ev.End.Sub(ev.Start).Seconds())
	if ev.End.After(p.end) {
		p.end = ev.End
	}
	if p.start.IsZero() || ev.Start.Before(p.start) {
		p.start = ev.Start
	}
}

// newPendingInterval is an interval no stream has added to yet.
func newPendingInterval() *pendingInterval {
	return &pendingInterval{recs: map[string]results.Recording{}}
}

// endpoint is stream's endpoint label ("" when not named).
func (a *Aggregator) endpoint(stream int) string {
	if stream < len(a.eps) {
		return a.eps[stream]
	}
	return ""
}

// flush tells the intervals every stream has gone past.
func (a *Aggregator) flush() {
	for p, ok := a.intervals.Next(); ok; p, ok = a.intervals.Next() {
		if a.PhaseOf != nil {
			if ph := a.PhaseOf(p.start); ph != a.state.Phase {
				a.relabel(ph, p.start)
			}
		}
		if p.dur > 0 {
			a.send(a.intervalPoints(p))
		}
		for _, r := range p.recs {
			if !p.borrowed {
				a.release(r)
			}
		}
	}
}

// merge adds o into r key by key, taking histograms from the free list:
// an interval costs no allocation once the first ones are told.
func (a *Aggregator) merge(r, o results.Recording) {
	for k, h := range o {
		if h == nil {
			continue
		}
		if r[k] == nil {
			r[k] = a.hists()
		}
		r[k].Merge(h)
	}
}

// withAll returns r (not changed) with its operations merged as "all"
// (free list histograms, for release).
func (a *Aggregator) withAll(r results.Recording) results.Recording {
	out := make(results.Recording, len(r)+1)
	all := a.hists()
	for k, h := range r {
		if h != nil && k != opAll {
			out[k] = h
			all.Merge(h)
		}
	}
	out[opAll] = all
	return out
}

// hists returns empty histograms, from the free list when it has some.
func (a *Aggregator) hists() *results.OpHists {
	if n := len(a.free); n > 0 {
		h := a.free[n-1]
		a.free = a.free[:n-1]
		return h
	}
	return results.NewOpHists()
}

// release empties r's histograms onto the free list.
func (a *Aggregator) release(r results.Recording) {
	for _, h := range r {
		h.FirstByte.Reset()
		h.LastByte.Reset()
		clear(h.Errors)
		h.Retries = 0
		a.free = append(a.free, h)
	}
}

// resetSofar starts the phase's figures so far again.
func (a *Aggregator) resetSofar() {
	for _, r := range a.sofar {
		a.release(r)
	}
	a.sofar, a.elapsed = map[string]results.Recording{}, 0
}
