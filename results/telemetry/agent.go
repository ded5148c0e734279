package telemetry

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// BufferSamples is how many samples the agent keeps while its output is
// not read (ten minutes at one a second).
const BufferSamples = 600

// RunAgent is `benchbed telemetry-agent`: it reads a Config from the first
// line of in, writes a Ready line, then one Sample a interval as JSON lines
// on out, tagged with the phase the last Control line of in set (a phase
// change also ends the current interval, so that samples never straddle
// two phases). It stops when in reaches its end or ctx is done.
func RunAgent(ctx context.Context, fs FS, in io.Reader, out io.Writer) error {
	enc := json.NewEncoder(out)
	br := bufio.NewReader(in)
	line, err := br.ReadBytes('\n')
	if err != nil && (err != io.EOF || len(line) == 0) {
		return fail(enc, fmt.Errorf("telemetry agent: reading the config from stdin: %w", err))
	}
	cfg, err := ParseConfig(line)
	if err != nil {
		return fail(enc, err)
	}
	s, warns, err := NewSampler(fs, cfg)
	if err != nil {
		return fail(enc, fmt.Errorf("telemetry agent: %w", err))
	}
	ready := Ready{Type: "ready", Host: cfg.Host, Disks: s.Disks(), Services: s.procs.counts(), Warnings: warns}
	if cfg.StatsdAddr != "" {
		if s.statsd, err = ListenStatsd(cfg.StatsdAddr); err != nil {
			return fail(enc, fmt.Errorf("telemetry agent: statsd receiver: %w", err))
		}
		defer s.statsd.Close()
		ready.Statsd = s.statsd.Addr()
	}
	if err := enc.Encode(ready); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	phases := make(chan string, 16)
	go readControl(br, phases, cancel)
	buf := NewBuffer(BufferSamples)
	done := make(chan error, 1)
	go func() { done <- writeSamples(ctx, buf, enc) }()
	err = sampleLoop(ctx, s, cfg.Interval(), phases, buf)
	cancel()
	if werr := <-done; err == nil {
		err = werr
	}
	if err != nil {
		return fail(enc, err)
	}
	return nil
}

// readControl passes the phases of in's lines on, and cancels at its end.
func readControl(br *bufio.Reader, phases chan<- string, cancel func()) {
	defer cancel()
	sc := bufio.NewScanner(br)
	for sc.Scan() {
		var c Control
		if json.Unmarshal(sc.Bytes(), &c) == nil && c.Phase != "" {
			phases <- c.Phase
		}
	}
}

// sampleLoop samples every interval into buf until ctx is done; a phase
// change closes the running interval under the old phase first (unless it
// is shorter than a tenth of the interval, which goes to the new phase)
// and starts the next interval from there. A line repeating the current
// phase changes nothing.
func sampleLoop(ctx context.Context, s *Sampler, interval time.Duration, phases <-chan string, buf *Buffer) error {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		next := ""
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		case next = <-phases:
			if next == s.currentPhase() {
				continue
			}
			tick.Reset(interval)
			if time.Since(s.prev.t) < interval/10 {
				s.SetPhase(next)
				continue
			}
		}
		smp, err := s.Sample()
		if err != nil {
			return err
		}
		buf.Put(smp)
		if next != "" {
			s.SetPhase(next)
		}
	}
}

// writeSamples writes buf's samples to enc as they come, and the last
// ones once ctx is done.
func writeSamples(ctx context.Context, buf *Buffer, enc *json.Encoder) error {
	for {
		select {
		case <-buf.Ready():
		case <-ctx.Done():
			return put(enc, buf.Take())
		}
		if err := put(enc, buf.Take()); err != nil {
			return err
		}
	}
}

func put(enc *json.Encoder, samples []Sample) error {
	for _, s := range samples {
		if err := enc.Encode(s); err != nil {
			return err
		}
	}
	return nil
}

func fail(enc *json.Encoder, err error) error {
	_ = enc.Encode(Failure{Type: "error", Error: err.Error()})
	return err
}
