package metrics

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Output is one receiver of points.
type Output interface {
	// Name says which receiver, without secrets ("remote write
	// http://127.0.0.1:9090/api/v1/write").
	Name() string
	// Probe checks, before anything changes, that the receiver is there
	// and takes this kind of write.
	Probe(ctx context.Context) error
	// Write sends one batch.
	Write(ctx context.Context, pts []Point) error
}

// DefaultQueue is the batches an output's queue holds (an interval's
// points are one batch): a minute of intervals.
const DefaultQueue = 60

// WriteTimeout bounds one write of NewExporter's senders; a receiver
// slower than that loses the batch.
const WriteTimeout = 5 * time.Second

// Exporter sends points to its outputs, asynchronously and bounded: each
// output has its own queue of Size batches and its own sender, a batch
// that finds a queue full is dropped and counted, as is one its receiver
// refused or did not answer in time. Send never blocks.
type Exporter struct {
	queues []*queue
	write  time.Duration // the bound of one write
	wg     sync.WaitGroup
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.RWMutex // Send holds it shared, Close to close the queues
	closed bool
}

// queue is one output's queue and counters.
type queue struct {
	out     Output
	ch      chan []Point
	sent    atomic.Int64
	dropped atomic.Int64
	lastErr atomic.Value // string
}

// NewExporter starts one sender per output, each with a queue of size
// batches (DefaultQueue when size <= 0), each write bounded by
// WriteTimeout.
func NewExporter(size int, outs ...Output) *Exporter {
	return NewExporterWithin(size, WriteTimeout, outs...)
}

// NewExporterWithin is NewExporter with each write bounded by write
// (WriteTimeout when write <= 0).
func NewExporterWithin(size int, write time.Duration, outs ...Output) *Exporter {
	if size <= 0 {
		size = DefaultQueue
	}
	if write <= 0 {
		write = WriteTimeout
	}
	e := &Exporter{write: write}
	e.ctx, e.cancel = context.WithCancel(context.Background())
	for _, o := range outs {
		q := &queue{out: o, ch: make(chan []Point, size)}
		e.queues = append(e.queues, q)
		e.wg.Add(1)
		go func() {
			defer e.wg.Done()
			q.run(e.ctx, e.write)
		}()
	}
	return e
}

// Probe probes every output; their errors joined.
func (e *Exporter) Probe(ctx context.Context) error {
	var errs []error
	for _, q := range e.queues {
		if err := q.out.Probe(ctx); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", q.out.Name(), err))
		}
	}
	return errors.Join(errs...)
}

// Send queues a batch for every output, dropping it for those whose queue
// is full. It never blocks; after Close it drops.
func (e *Exporter) Send(pts []Point) {
	if len(pts) == 0 {
		return
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	for _, q := range e.queues {
		if e.closed {
			q.dropped.Add(1)
			continue
		}
		select {
		case q.ch <- pts:
		default:
			q.dropped.Add(1)
		}
	}
}

// run sends the queue's batches until it is closed, several queued ones
// in one write.
func (q *queue) run(ctx context.Context, write time.Duration) {
	for pts := range q.ch {
		n := 1
	more:
		for n < 16 {
			select {
			case p, ok := <-q.ch:
				if !ok {
					break more
				}
				pts = append(pts[:len(pts):len(pts)], p...)
				n++
			default:
				break more
			}
		}
		wctx, cancel := context.WithTimeout(ctx, write)
		err := q.out.Write(wctx, pts)
		cancel()
		if err != nil {
			q.dropped.Add(int64(n))
			q.lastErr.Store(err.Error())
			continue
		}
		q.sent.Add(int64(n))
	}
}

// Stat is what one output did: batches sent, and dropped (queue full,
// refused, unanswered or left at the end), with the last error.
type Stat struct {
	Output        string
	Sent, Dropped int64
	LastError     string
}

// String says it in one line.
func (s Stat) String() string {
	line := fmt.Sprintf("%s: %d batches sent, %d dropped", s.Output, s.Sent, s.Dropped)
	if s.LastError != "" {
		line += " (last error: " + s.LastError + ")"
	}
	return line
}

// Close stops taking batches, waits up to wait for the queues to drain
// (what is left is dropped) and returns each output's counts.
func (e *Exporter) Close(wait time.Duration) []Stat {
	e.mu.Lock()
	if !e.closed {
		e.closed = true
		for _, q := range e.queues {
			close(q.ch)
		}
	}
	e.mu.Unlock()
	done := make(chan struct{})
	go func() { e.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(wait):
		e.cancel()
		<-done
	}
	e.cancel()
	return e.Stats()
}

// Stats returns each output's counts so far.
func (e *Exporter) Stats() []Stat {
	out := make([]Stat, 0, len(e.queues))
	for _, q := range e.queues {
		s := Stat{Output: q.out.Name(), Sent: q.sent.Load(), Dropped: q.dropped.Load()}
		if v, ok := q.lastErr.Load().(string); ok {
			s.LastError = v
		}
		out = append(out, s)
	}
	return out
}
