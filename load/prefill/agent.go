package prefill

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"benchbed/load"
	"benchbed/plan/scenario"
	"benchbed/results"
)

// AgentJob is what `benchbed prefill-agent` reads as one JSON line on
// stdin: its share of one scenario's initial objects.
type AgentJob struct {
	Agent       string          `json:"agent"`    // a name for its events
	Scenario    json.RawMessage `json:"scenario"` // the ssbench scenario, as is
	Auth        load.AuthSpec   `json:"auth"`
	Policy      string          `json:"policy,omitempty"`
	Part        int             `json:"part"`  // this agent's share: units i with i mod parts = part
	Parts       int             `json:"parts"` // agents in all
	Concurrency int             `json:"concurrency,omitempty"`
	Verify      string          `json:"verify,omitempty"`
	Done        []int           `json:"done,omitempty"`       // units the checkpoint already has
	CheckOnly   bool            `json:"check_only,omitempty"` // count what is missing, put nothing (Options.CheckOnly)
}

// AgentEvent is one JSON line a prefill agent writes: "ready", "unit" (a
// unit is done: the orchestrator checkpoints it), "progress" (every
// second), "done" or "error".
type AgentEvent struct {
	Type   string `json:"type"`
	Agent  string `json:"agent,omitempty"`
	Unit   int    `json:"unit,omitempty"`
	Totals Totals `json:"totals"`
	Error  string `json:"error,omitempty"`
}

// RunAgent is `benchbed prefill-agent`: it reads an AgentJob from the
// first line of in, fills its share, and reports on out. It stops when ctx
// ends or in reaches its end (the orchestrator went away).
func RunAgent(ctx context.Context, in io.Reader, out io.Writer) error {
	ew := eventWriter{results.NewLineWriter(out)}
	br := bufio.NewReader(in)
	line, err := br.ReadBytes('\n')
	if err != nil && (err != io.EOF || len(line) == 0) {
		return ew.fail("", fmt.Errorf("prefill agent: reading the job: %w", err))
	}
	var job AgentJob
	if err := json.Unmarshal(line, &job); err != nil {
		return ew.fail("", fmt.Errorf("prefill agent: the job: %w", err))
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { _, _ = io.Copy(io.Discard, br); cancel() }()
	var cnt Counters
	ew.write(AgentEvent{Type: "ready", Agent: job.Agent})
	stop := ew.ticker(job.Agent, &cnt, time.Second)
	err = job.run(ctx, ew, &cnt)
	stop()
	if err != nil {
		return ew.fail(job.Agent, err)
	}
	ew.write(AgentEvent{Type: "done", Agent: job.Agent, Totals: cnt.Snapshot()})
	return ew.Err()
}

func (job AgentJob) run(ctx context.Context, ew eventWriter, cnt *Counters) error {
	sc, err := scenario.Parse(job.Scenario)
	if err != nil {
		return err
	}
	l, err := NewLayout(sc)
	if err != nil {
		return err
	}
	if job.Parts < 1 || job.Part < 0 || job.Part >= job.Parts {
		return fmt.Errorf("prefill agent: part %d of %d", job.Part, job.Parts)
	}
	st, hc, err := NewStore(job.Auth, max(job.Concurrency, 1), job.Policy)
	if err != nil {
		return err
	}
	defer hc.CloseIdleConnections()
	state := &State{Done: job.Done}
	return Run(ctx, l, st, Options{Concurrency: job.Concurrency, Verify: job.Verify, State: state,
		Part: job.Part, Parts: job.Parts, CheckOnly: job.CheckOnly,
		OnUnitDone: func(i int) { ew.write(AgentEvent{Type: "unit", Agent: job.Agent, Unit: i, Totals: cnt.Snapshot()}) },
	}, cnt)
}

// eventWriter writes an agent's events as JSON lines.
type eventWriter struct{ *results.LineWriter }

func (w eventWriter) write(e AgentEvent) { w.Put(e) }

func (w eventWriter) fail(agent string, err error) error {
	w.write(AgentEvent{Type: "error", Agent: agent, Error: err.Error()})
	return err
}

// ticker writes a progress event every d until the returned stop is called.
func (w eventWriter) ticker(agent string, cnt *Counters, d time.Duration) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				w.write(AgentEvent{Type: "progress", Agent: agent, Totals: cnt.Snapshot()})
			case <-done:
				return
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// ErrAgent is an agent's own report of failure, as read by ReadAgent.
var ErrAgent = errors.New("prefill agent failed")

// ReadAgent reads one agent's events until its stream ends, calling onUnit
// for each unit done and onProgress with its running totals; it returns
// the agent's final totals, or its error.
func ReadAgent(r io.Reader, onUnit func(int), onProgress func(Totals)) (Totals, error) {
	dec := json.NewDecoder(r)
	var last Totals
	for {
		var e AgentEvent
		if err := dec.Decode(&e); err != nil {
			if err == io.EOF {
				return last, errors.New("the agent's stream ended before it said done")
			}
			return last, fmt.Errorf("reading the agent's events: %w", err)
		}
		switch e.Type {
		case "unit":
			onUnit(e.Unit)
		case "done":
			onProgress(e.Totals)
			return e.Totals, nil
		case "error":
			return last, fmt.Errorf("%w: %s", ErrAgent, e.Error)
		}
		if e.Type != "ready" {
			last = e.Totals
			onProgress(e.Totals)
		}
	}
}
