package telemetry

import "sync"

// Buffer holds at most a fixed number of samples between the sampler and
// the writer: when full, the oldest is dropped (and counted in the Dropped
// of the next sample taken), so that a stalled reader never grows the agent.
type Buffer struct {
	mu      sync.Mutex
	items   []Sample
	limit   int
	dropped int
	ready   chan struct{}
}

// NewBuffer returns a buffer of limit samples (at least one).
func NewBuffer(limit int) *Buffer {
	return &Buffer{limit: max(1, limit), ready: make(chan struct{}, 1)}
}

// Put adds s, dropping the oldest sample when the buffer is full.
func (b *Buffer) Put(s Sample) {
	b.mu.Lock()
	if len(b.items) == b.limit {
		b.items = append(b.items[:0], b.items[1:]...)
		b.dropped++
	}
	b.items = append(b.items, s)
	b.mu.Unlock()
	select {
	case b.ready <- struct{}{}:
	default:
	}
}

// Ready is signalled after a Put.
func (b *Buffer) Ready() <-chan struct{} { return b.ready }

// Take removes and returns every buffered sample, oldest first; the
// first one counts the samples dropped since the last Take.
func (b *Buffer) Take() []Sample {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := b.items
	if len(out) > 0 {
		out[0].Dropped, b.dropped = out[0].Dropped+b.dropped, 0
	}
	b.items = make([]Sample, 0, len(out))
	return out
}
