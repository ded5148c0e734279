package load

import (
	"sync"

	"benchbed/results"
)

// Recorder keeps a run's latencies in HDR histograms, per operation type,
// in intervals: Record adds to the current interval, Flush closes it. Its
// memory does not depend on the number of requests.
type Recorder struct {
	mu    sync.Mutex
	cur   results.Recording
	spare results.Recording
	total results.Recording
	per   []int64 // successful operations per interval
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder {
	return &Recorder{cur: results.Recording{}, spare: results.Recording{}, total: results.Recording{}}
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
	if key := o.ErrorKey(); key != "" {
		h.Errors[key]++
	} else {
		h.FirstByte.Record(o.FirstByte)
		h.LastByte.Record(o.LastByte)
	}
	h.Retries += int64(o.Retries)
	r.mu.Unlock()
}

// Flush closes the current interval: it passes the interval's recording to
// fn (which must not keep it), adds it to the total and starts the next.
// Call it from one goroutine at a time.
func (r *Recorder) Flush(fn func(results.Recording)) {
	r.mu.Lock()
	iv := r.cur
	r.cur, r.spare = r.spare, nil
	r.mu.Unlock()
	if fn != nil {
		fn(iv)
	}
	var n int64
	for _, h := range iv {
		n += h.LastByte.Count()
	}
	r.total.Merge(iv)
	for _, h := range iv {
		h.FirstByte.Reset()
		h.LastByte.Reset()
		clear(h.Errors)
		h.Retries = 0
	}
	r.mu.Lock()
	r.spare = iv
	r.per = append(r.per, n)
	r.mu.Unlock()
}

// Total returns everything flushed so far, and the successful operations
// of each interval. Flush first to include the current interval.
func (r *Recorder) Total() (results.Recording, []int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.total, append([]int64(nil), r.per...)
}
