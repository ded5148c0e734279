package agents

import (
	"io"
	"sync"

	"benchbed/load"
	"benchbed/results"
)

// watchStop sends every agent load.StopLine once r.Stop closes, until
// the returned function is called (the run's end).
func (r Job) watchStop(procs []*Proc) func() {
	if r.Stop == nil {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case <-r.Stop:
			for _, p := range procs {
				// An agent that already ended has a closed stdin: nothing to stop.
				_, _ = io.WriteString(p.Stdin, load.StopLine)
			}
		case <-done:
		}
	}()
	return func() { close(done); wg.Wait() }
}

// each is what the merge tells of every event: the per-second series
// for r.Second and r.Each, nil when both are unset.
func (r Job) each(streams int) func(int, results.AgentEvent) {
	if r.Second == nil {
		return r.Each
	}
	add := results.NewSeconds(streams, r.Second).Add
	if r.Each == nil {
		return add
	}
	return func(i int, ev results.AgentEvent) {
		add(i, ev)
		r.Each(i, ev)
	}
}
