package proxylog

import (
	"container/heap"
	"errors"

	"io"
	"os"
)

// Reader merges the records of several inputs by their start time: a heap
// of one stream per input, each holding one record, so that memory does
// not grow with the logs' length. Logs are written at each request's end,
// so one file's start times are nearly, not strictly, in order; the merge
// keeps each file's order.
type Reader struct {
	h       streamHeap
	stats   Stats
	errs    []error
	closers []io.Closer
	cur     *stream // the stream whose record Next returned last
}

// NewReader reads inputs with template t.
func NewReader(t *Template, inputs ...Input) (*Reader, error) {
	r := &Reader{}
	for _, in := range inputs {
		s, err := newStream(in, t, &r.stats)
		if err != nil {
			return nil, err
		}
		r.h = append(r.h, s)
	}
	live := r.h[:0]
	for _, s := range r.h {
		if s.next() {
			live = append(live, s)
		} else if s.err != nil {
			r.errs = append(r.errs, s.err)
		}
	}
	r.h = live
	heap.Init(&r.h)
	return r, nil
}

// Open reads the files at paths (plain or gzip) with template t.
func Open(t *Template, paths ...string) (*Reader, error) {
	var inputs []Input
	var closers []io.Closer
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			for _, c := range closers {
				c.Close()
			}
			return nil, err
		}
		inputs, closers = append(inputs, Input{Name: p, R: f}), append(closers, f)
	}
	r, err := NewReader(t, inputs...)
	if err != nil {
		for _, c := range closers {
			c.Close()
		}
		return nil, err
	}
	r.closers = closers
	return r, nil
}

// Next returns the next record by start time, valid until the next call;
// false when every input is read.
func (r *Reader) Next() (*Record, bool) {
	if r.cur != nil {
		if r.cur.next() {
			heap.Fix(&r.h, 0)
		} else {
			if r.cur.err != nil {
				r.errs = append(r.errs, r.cur.err)
			}
			heap.Pop(&r.h)
		}
		r.cur = nil
	}
	if len(r.h) == 0 {
		return nil, false
	}
	r.cur = r.h[0]
	return &r.cur.rec, true
}

// Stats returns what was read so far.
func (r *Reader) Stats() Stats { return r.stats }

// Err returns the inputs' read errors (an input ends at its error).
func (r *Reader) Err() error { return errors.Join(r.errs...) }

// Close closes the files Open opened.
func (r *Reader) Close() error {
	var errs []error
	for _, c := range r.closers {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// streamHeap orders streams by their record's start time, then name.
type streamHeap []*stream

func (h streamHeap) Len() int { return len(h) }
func (h streamHeap) Less(i, j int) bool {
	a, b := h[i].rec.Start, h[j].rec.Start
	if a.Equal(b) {
		return h[i].name < h[j].name
	}
	return a.Before(b)
}
func (h streamHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *streamHeap) Push(x any)   { *h = append(*h, x.(*stream)) }
func (h *streamHeap) Pop() any {
	old := *h
	s := old[len(old)-1]
	*h = old[:len(old)-1]
	return s
}
