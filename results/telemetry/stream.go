package telemetry

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// Stream is the orchestrator's side of one host's agent: it reads the
// agent's lines, keeps the sample lines (verbatim) in a writer and only
// the latest sample in memory.
type Stream struct {
	Host string

	mu      sync.Mutex
	ready   *Ready
	latest  *Sample
	samples int
	failure string
}

// Consume reads the agent's output until its end: the ready line, sample
// lines (each written to w as one line) and a failure line. It returns
// the agent's failure, a line it could not read, or w's error.
func (s *Stream) Consume(r io.Reader, w io.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if err := s.line(line); err != nil {
			return err
		}
		if !bytes.HasPrefix(line, []byte(`{"type":`)) {
			if _, err := w.Write(append(line, '\n')); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: telemetry agent: %w", s.Host, err)
	}
	if f := s.Failure(); f != "" {
		return fmt.Errorf("%s: telemetry agent: %s", s.Host, f)
	}
	return nil
}

// line takes in one line of the agent.
func (s *Stream) line(line []byte) error {
	var head struct {
		Type  string `json:"type"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return fmt.Errorf("%s: telemetry agent wrote %.80q: %w", s.Host, line, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch head.Type {
	case "ready":
		var r Ready
		if err := json.Unmarshal(line, &r); err != nil {
			return fmt.Errorf("%s: telemetry agent's ready line: %w", s.Host, err)
		}
		s.ready = &r
	case "error":
		s.failure = head.Error
	default:
		var smp Sample
		if err := json.Unmarshal(line, &smp); err != nil {
			return fmt.Errorf("%s: telemetry agent's sample: %w", s.Host, err)
		}
		s.latest = &smp
		s.samples++
	}
	return nil
}

// Ready returns the agent's ready line, nil before it came.
func (s *Stream) Ready() *Ready {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ready
}

// Latest returns the latest sample, nil before the first.
func (s *Stream) Latest() *Sample {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.latest
}

// Samples is the number of samples read.
func (s *Stream) Samples() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.samples
}

// Failure is the agent's error line, "" when none.
func (s *Stream) Failure() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failure
}

// ReadSamples reads a file of sample lines (cells/<id>/telemetry/<host>.jsonl).
func ReadSamples(path string) ([]Sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Sample
	dec := json.NewDecoder(bufio.NewReader(f))
	for {
		var s Sample
		err := dec.Decode(&s)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("%s: sample %d: %w", path, len(out)+1, err)
		}
		out = append(out, s)
	}
}

// Busiest says which host's CPU and which disk were the busiest in the
// latest samples: "busiest: stor1 CPU 45%, stor1:d1 (loop3) 37%"; "" with
// no sample.
func Busiest(latest []Sample) string {
	var host, disk string
	cpu, util := -1.0, -1.0
	for _, s := range latest {
		if s.CPU.Busy > cpu {
			host, cpu = s.Host, s.CPU.Busy
		}
		for name, d := range s.Disks {
			c := fmt.Sprintf("%s:%s (%s)", s.Host, name, d.Dev)
			if d.Util > util || d.Util == util && c < disk {
				disk, util = c, d.Util
			}
		}
	}
	if cpu < 0 {
		return ""
	}
	out := fmt.Sprintf("busiest: %s CPU %.0f%%", host, cpu)
	if util >= 0 {
		out += fmt.Sprintf(", %s %.0f%%", disk, util)
	}
	return out
}
