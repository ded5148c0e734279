package load

import (
	"maps"
	"sync"

	"benchbed/results"
)

// Recorder keeps a run's latencies in HDR histograms, per operation type,
// in intervals: Record adds to the current interval, Flush closes it. A fill
// run's creates also go, by fill bucket, to RecordFill. Its memory does not
// depend on the number of requests.
type Recorder struct {
	mu    sync.Mutex
	cur   results.Recording
	spare results.Recording
	total results.Recording
	per   []int64 // successful operations per interval
	// The fill buckets, as cur, spare and total are: an interval streams
	// only the buckets it touched (a filling container touches one or
	// two) and they are kept for reuse one interval, so that memory is
	// bounded by the buckets, never by the requests.
	curFill, spareFill, totalFill results.FillRecording
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder {
	return &Recorder{cur: results.Recording{}, spare: results.Recording{}, total: results.Recording{},
		curFill: results.FillRecording{}, spareFill: results.FillRecording{}, totalFill: results.FillRecording{}}
}

// Record adds one operation's outcome: latencies when it succeeded, its
// error key when not, and its retries.
func (r *Recorder) Record(op string, o Outcome) {
	r.mu.Lock()
	h := r.cur[op]
	if h == nil {
		h = results.NewOpHists()
		r.cur[op] = h
	}
	add(h, o)
	r.mu.Unlock()
}

// RecordFill adds one operation's outcome to fill bucket b (besides
// Record, which counts it with its operation type).
func (r *Recorder) RecordFill(b int, o Outcome) {
	r.mu.Lock()
	add(r.curFill.Record(b), o)
	r.mu.Unlock()
}

// add records o in h.
func add(h *results.OpHists, o Outcome) {
	if key := o.ErrorKey(); key != "" {
		h.Errors[key]++
	} else {
		h.FirstByte.Record(o.FirstByte)
		h.LastByte.Record(o.LastByte)
	}
	h.Retries += int64(o.Retries)
}

// Flush closes the current interval: it passes the interval's recording
// and fill buckets to fn (which must not keep them), adds them to the
// total and starts the next. Call it from one goroutine at a time.
func (r *Recorder) Flush(fn func(results.Recording, results.FillRecording)) {
	r.mu.Lock()
	iv, fill := r.cur, r.curFill
	r.cur, r.spare = r.spare, nil
	r.curFill, r.spareFill = r.spareFill, nil
	r.mu.Unlock()
	maps.DeleteFunc(fill, func(_ int, h *results.OpHists) bool { return empty(h) })
	if fn != nil {
		fn(iv, fill)
	}
	var n int64
	for _, h := range iv {
		n += h.LastByte.Count()
	}
	r.total.Merge(iv)
	r.totalFill.Merge(fill)
	for _, h := range iv {
		reset(h)
	}
	for _, h := range fill {
		reset(h)
	}
	r.mu.Lock()
	r.spare, r.spareFill = iv, fill
	r.per = append(r.per, n)
	r.mu.Unlock()
}

// empty reports whether h holds no operation.
func empty(h *results.OpHists) bool {
	return h.LastByte.Count() == 0 && len(h.Errors) == 0 && h.Retries == 0
}

// reset empties h, keeping its memory.
func reset(h *results.OpHists) {
	h.FirstByte.Reset()
	h.LastByte.Reset()
	clear(h.Errors)
	h.Retries = 0
}

// Total returns everything flushed so far, and the successful operations
// of each interval. Flush first to include the current interval.
func (r *Recorder) Total() (results.Recording, []int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.total, append([]int64(nil), r.per...)
}

// TotalFill returns the fill buckets flushed so far (empty when the run
// is no fill run).
func (r *Recorder) TotalFill() results.FillRecording {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.totalFill
}
