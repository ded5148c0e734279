package results

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"benchbed/plan/scenario"
)

// Live is the merged state of the agents after an interval event, for a
// live display.
type Live struct {
	Agents  int     // agents that have reported at least once
	Elapsed float64 // seconds since the start, as the latest agent says
	ReqPerS float64 // successful operations per second in every agent's latest interval
	Done    int64   // successful operations so far, all agents
	Errors  int64   // failed operations so far, all agents
}

// Merged is the outcome of every agent's stream.
type Merged struct {
	Recording Recording
	PerSecond []int64       // successful operations per interval, summed by interval index
	Duration  time.Duration // the longest agent's run
	Done      int           // agents that reported "done"
	Err       error         // agents' errors and broken streams, joined

	// Fill is a fill run's creates by fill bucket, all agents.
	Fill FillRecording

	// Agents are the agents' own recordings, by stream (agent i's is
	// Agents[i]): what each endpoint served (EndpointRecordings).
	Agents []Recording
	// ClientCPU is the busiest agent's own CPU share over its run (its done
	// event's), nil when no agent said.
	ClientCPU *float64
}

// agentLine is one decoded line, or a stream's failure or end.
type agentLine struct {
	stream int
	ev     AgentEvent
	err    error
	eof    bool
}

// MergeStreams reads the JSON-line streams of N agents (their stdout,
// e.g. from SSH sessions), merges their interval histograms, and calls
// live (if not nil) after each interval with the merged live figures. It
// returns when every stream has ended. Memory does not grow with the
// number of requests: only histograms and per-interval counts are kept.
func MergeStreams(streams []io.Reader, live func(Live)) *Merged {
	return MergeStreamsEach(streams, live, nil)
}

// MergeStreamsEach is MergeStreams that also hands each decoded event
// to each (if not nil), with its stream's index, in the order merged.
func MergeStreamsEach(streams []io.Reader, live func(Live), each func(stream int, ev AgentEvent)) *Merged {
	lines := make(chan agentLine)
	var wg sync.WaitGroup
	for i, r := range streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			readAgent(i, r, lines)
		}()
	}
	go func() { wg.Wait(); close(lines) }()
	agents := make([]Recording, len(streams))
	for i := range agents {
		agents[i] = Recording{}
	}
	m := &merger{out: &Merged{Recording: Recording{}, Fill: FillRecording{}, Agents: agents}, rate: make([]float64, len(streams)),
		seen: make([]bool, len(streams)), done: make([]bool, len(streams))}
	var errs []error
	for l := range lines {
		if err := m.take(l); err != nil {
			errs = append(errs, err)
		}
		if l.ev.Type == "interval" && live != nil {
			live(m.live)
		}
		if each != nil && l.err == nil && !l.eof {
			each(l.stream, l.ev)
		}
	}
	m.out.Err = errors.Join(errs...)
	return m.out
}

// readAgent decodes one stream's lines into out.
func readAgent(i int, r io.Reader, out chan<- agentLine) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 64<<20)
	for n := 1; sc.Scan(); n++ {
		var ev AgentEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			out <- agentLine{stream: i, err: fmt.Errorf("agent stream %d line %d: %w", i, n, err)}
			continue
		}
		out <- agentLine{stream: i, ev: ev}
	}
	out <- agentLine{stream: i, err: sc.Err(), eof: true}
}

// maxIntervals bounds an interval index (a month of seconds).
const maxIntervals = 31 * 24 * 3600

// minLiveInterval is the shortest interval, in seconds, whose rate the
// live figure takes once it has one.
const minLiveInterval = 0.5

type merger struct {
	out  *Merged
	live Live
	rate []float64 // latest interval's req/s, by stream
	seen []bool
	done []bool
}

func (m *merger) take(l agentLine) error {
	switch {
	case l.eof && l.err != nil:
		return fmt.Errorf("agent stream %d: %w", l.stream, l.err)
	case l.eof && !m.done[l.stream]:
		return fmt.Errorf("agent stream %d ended before the agent reported done", l.stream)
	case l.err != nil || l.eof:
		return l.err
	}
	ev := l.ev
	switch ev.Type {
	case "interval":
		if ev.Index < 0 || ev.Index > maxIntervals {
			return fmt.Errorf("agent %s: interval index %d out of range", ev.Agent, ev.Index)
		}
		for b := range ev.Fill {
			if b < 0 || b >= scenario.MaxFillBuckets {
				return fmt.Errorf("agent %s: fill bucket %d out of range", ev.Agent, b)
			}
		}
		m.interval(l.stream, ev)
	case "progress":
		m.live.Elapsed = max(m.live.Elapsed, ev.Elapsed)
	case "done":
		m.done[l.stream] = true
		m.out.Done++
		m.out.Duration = max(m.out.Duration, time.Duration(ev.Duration*float64(time.Second)))
		if ev.ClientCPU != nil && (m.out.ClientCPU == nil || *ev.ClientCPU > *m.out.ClientCPU) {
			cpu := *ev.ClientCPU
			m.out.ClientCPU = &cpu
		}
		if ev.Error != "" {
			return fmt.Errorf("agent %s: %s", ev.Agent, ev.Error)
		}
	case "error":
		m.done[l.stream] = true // it said why it stops
		return fmt.Errorf("agent %s: %s", ev.Agent, ev.Error)
	}
	return nil
}

func (m *merger) interval(stream int, ev AgentEvent) {
	var n, e int64
	for _, h := range ev.Ops {
		n += h.LastByte.Count()
		e += h.ErrorCount()
	}
	m.out.Recording.Merge(ev.Ops)
	m.out.Agents[stream].Merge(ev.Ops)
	m.out.Fill.Merge(ev.Fill)
	for len(m.out.PerSecond) <= ev.Index {
		m.out.PerSecond = append(m.out.PerSecond, 0)
	}
	m.out.PerSecond[ev.Index] += n
	if !m.seen[stream] {
		m.seen[stream] = true
		m.live.Agents++
	}
	// A short interval (the stub between the last full second and the
	// end, when the users' last requests land) would inflate the rate: the
	// live figure keeps the last full interval's.
	if d := ev.End.Sub(ev.Start).Seconds(); d >= minLiveInterval || m.rate[stream] == 0 && d > 0 {
		m.rate[stream] = float64(n) / d
	}
	m.live.ReqPerS = 0
	for _, r := range m.rate {
		m.live.ReqPerS += r
	}
	m.live.Done += n
	m.live.Errors += e
}
