package agents

import (
	"fmt"
	"io"
	"sync"
	"time"

	"benchbed/load/prefill"
)

// prefillProgress sums the agents' totals and prints a line now and then:
// objects done of all, objects/s, the time left, retries and failures.
type prefillProgress struct {
	mu      sync.Mutex
	w       io.Writer
	label   string
	objects int64 // in all
	base    int64 // done before this pass (the checkpoint's units)
	agents  []prefill.Totals
	start   time.Time
	stop    chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
}

func newPrefillProgress(w io.Writer, label string, total int64, agents int) *prefillProgress {
	return &prefillProgress{w: w, label: label, objects: total, agents: make([]prefill.Totals, agents),
		start: time.Now(), stop: make(chan struct{})}
}

func (p *prefillProgress) set(agent int, t prefill.Totals) {
	p.mu.Lock()
	p.agents[agent] = t
	p.mu.Unlock()
}

// total returns the sum of the agents' latest totals.
func (p *prefillProgress) total() prefill.Totals {
	p.mu.Lock()
	defer p.mu.Unlock()
	var s prefill.Totals
	for _, t := range p.agents {
		s.Add(t)
	}
	return s
}

func (p *prefillProgress) note(msg string) {
	if p.w != nil {
		p.mu.Lock()
		fmt.Fprintf(p.w, "prefill %s: %s\n", p.label, msg)
		p.mu.Unlock()
	}
}

// line renders the progress at elapsed.
func (p *prefillProgress) line(elapsed time.Duration) string {
	t := p.total()
	done := p.base + t.Put + t.Skipped
	rate := float64(t.Put) / max(elapsed.Seconds(), 0.001)
	eta := "?"
	if left := p.objects - done; rate > 0 && left > 0 {
		eta = (time.Duration(float64(left)/rate*float64(time.Second)) / time.Second * time.Second).String()
	} else if left <= 0 {
		eta = "0s"
	}
	pct := 100 * float64(done) / float64(max(p.objects, 1))
	return fmt.Sprintf("prefill %s: %d/%d objects (%.1f%%), %d put, %d already there, %.0f objects/s, ETA %s, %d retries, %d failed",
		p.label, done, p.objects, pct, t.Put, t.Skipped, rate, eta, t.Retried, t.Failed)
}

// every prints a line every d (default 2s) and once more when stopped.
func (p *prefillProgress) every(d time.Duration) (stop func()) {
	if p.w == nil {
		return func() {}
	}
	if d <= 0 {
		d = 2 * time.Second
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				p.print()
			case <-p.stop:
				p.print()
				return
			}
		}
	}()
	return func() { p.once.Do(func() { close(p.stop) }); p.wg.Wait() }
}

func (p *prefillProgress) print() {
	l := p.line(time.Since(p.start))
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintln(p.w, l)
}
