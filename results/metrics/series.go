package metrics

import (
	"maps"
	"slices"
	"strconv"
	"time"

	"benchbed/results"
)

// The series an Aggregator writes (docs/metrics.md). Per interval:
// requests, rates and percentiles of that interval alone; benchbed_phase_*:
// the same so far in the phase (the last point of a run's phase is its
// cell's figure).
const (
	SeriesState          = "benchbed_state"        // 1 while the labels' phase runs
	SeriesOfferedRate    = "benchbed_offered_rate" // an open loop's or a probe's req/s
	SeriesRequests       = "benchbed_requests"     // successful operations in the interval
	SeriesReqPerS        = "benchbed_requests_per_second"
	SeriesErrPerS        = "benchbed_errors_per_second" // by cause
	SeriesFirstByte      = "benchbed_first_byte_seconds"
	SeriesLastByte       = "benchbed_last_byte_seconds"
	SeriesPhaseRequests  = "benchbed_phase_requests"
	SeriesPhaseErrors    = "benchbed_phase_errors" // by cause
	SeriesPhaseReqPerS   = "benchbed_phase_requests_per_second"
	SeriesPhaseFirstByte = "benchbed_phase_first_byte_seconds"
	SeriesPhaseLastByte  = "benchbed_phase_last_byte_seconds"
	SeriesPhaseElapsed   = "benchbed_phase_elapsed_seconds"
	opAll                = "all"
	endpointAll          = "all"
)

// Quantiles are the percentiles written of each latency histogram.
var Quantiles = []float64{0.5, 0.9, 0.99, 0.999}

// statePoints are the state's series at t.
func (a *Aggregator) statePoints(t time.Time) []Point {
	pts := []Point{{Name: SeriesState, Labels: a.base, Value: 1, Time: t}}
	if a.state.Rate > 0 {
		pts = append(pts, Point{Name: SeriesOfferedRate, Labels: a.base, Value: a.state.Rate, Time: t})
	}
	return pts
}

// intervalPoints are one merged interval's points: per endpoint (and
// "all" when there are several) and operation (and "all"), the
// interval's figures and the phase's so far.
func (a *Aggregator) intervalPoints(p *pendingInterval) []Point {
	a.elapsed += p.dur
	t := p.end
	pts := a.statePoints(t)
	recs := make(map[string]results.Recording, len(p.recs)+1)
	if len(p.recs) > 1 {
		all := results.Recording{}
		for _, r := range p.recs {
			a.merge(all, r)
		}
		defer a.release(all)
		recs[endpointAll] = all
	}
	for ep, r := range p.recs {
		recs[ep] = r
	}
	for _, ep := range slices.Sorted(maps.Keys(recs)) {
		r := a.withAll(recs[ep])
		so := a.sofar[ep]
		if so == nil {
			so = results.Recording{}
			a.sofar[ep] = so
		}
		a.merge(so, r)
		pts = appendRecording(pts, a.base, ep, r, p.dur, t, false)
		a.release(results.Recording{opAll: r[opAll]})
		pts = appendRecording(pts, a.base, ep, so, a.elapsed, t, true)
		pts = append(pts, Point{Name: SeriesPhaseElapsed, Labels: labelSet(a.base, LabelEndpoint, ep), Value: a.elapsed, Time: t})
	}
	return pts
}

// appendRecording appends a recording's points per operation (its "all"
// included: withAll's): over d seconds, the interval's series or
// (sofar) the phase's.
func appendRecording(pts []Point, base []Label, ep string, r results.Recording, d float64, t time.Time, sofar bool) []Point {
	for _, op := range slices.Sorted(maps.Keys(r)) {
		pts = appendOp(pts, labelSet(base, LabelEndpoint, ep, LabelOp, op), r[op], d, t, sofar)
	}
	return pts
}

// appendOp appends one operation's points (labels ls).
func appendOp(pts []Point, ls []Label, h *results.OpHists, d float64, t time.Time, sofar bool) []Point {
	names := [...]string{SeriesRequests, SeriesReqPerS, SeriesErrPerS, SeriesFirstByte, SeriesLastByte}
	if sofar {
		names = [...]string{SeriesPhaseRequests, SeriesPhaseReqPerS, SeriesPhaseErrors, SeriesPhaseFirstByte, SeriesPhaseLastByte}
	}
	n := float64(h.LastByte.Count())
	pts = append(pts, Point{Name: names[0], Labels: ls, Value: n, Time: t})
	if d > 0 {
		pts = append(pts, Point{Name: names[1], Labels: ls, Value: n / d, Time: t})
	}
	for _, cause := range slices.Sorted(maps.Keys(h.Errors)) {
		v := float64(h.Errors[cause])
		if !sofar {
			if d <= 0 {
				continue
			}
			v /= d
		}
		pts = append(pts, Point{Name: names[2], Labels: labelSet(ls, LabelCause, cause), Value: v, Time: t})
	}
	if n == 0 {
		return pts
	}
	for _, q := range Quantiles {
		qs := strconv.FormatFloat(q, 'g', -1, 64)
		pts = append(pts,
			Point{Name: names[3], Labels: labelSet(ls, LabelQuantile, qs), Value: h.FirstByte.Quantile(q).Seconds(), Time: t},
			Point{Name: names[4], Labels: labelSet(ls, LabelQuantile, qs), Value: h.LastByte.Quantile(q).Seconds(), Time: t})
	}
	return pts
}

// SeriesNames are every series an Aggregator writes, in name order.
func SeriesNames() []string {
	names := []string{SeriesState, SeriesOfferedRate, SeriesRequests, SeriesReqPerS, SeriesErrPerS, SeriesFirstByte,
		SeriesLastByte, SeriesPhaseRequests, SeriesPhaseErrors, SeriesPhaseReqPerS, SeriesPhaseFirstByte,
		SeriesPhaseLastByte, SeriesPhaseElapsed, SeriesHostCPUBusy, SeriesHostCPUIOWait, SeriesHostLoad1,
		SeriesHostMemUsed, SeriesHostNetRx, SeriesHostNetTx, SeriesHostDiskUtil, SeriesHostDiskAwait,
		SeriesHostDiskReadMB, SeriesHostDiskWrite, SeriesHostProcCPU}
	slices.Sort(names)
	return names
}

// LabelNames are every label a point may carry.
func LabelNames() []string {
	return []string{LabelRun, LabelTestbed, LabelVariant, LabelWorkload, LabelCell, LabelRepeat, LabelPhase,
		LabelEndpoint, LabelOp, LabelCause, LabelQuantile, LabelHost, LabelDevice, LabelService}
}
