package agents

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"

	"benchbed/load"
	"benchbed/results/telemetry"
)

// Local runs agents in-process (load.RunAgent over pipes): the real agent
// code, without SSH, for the engine's tests.
type Local struct {
	mu       sync.Mutex
	offsets  map[string]time.Duration
	Jobs     []load.Job
	started  int
	installs []string
}

// Install records that host was asked for the agent binary.
func (l *Local) Install(_ context.Context, host string) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.installs = append(l.installs, host)
	return "/opt/benchbed", nil
}

// ClockOffset is the offset set for host (zero unless set), measured to 1 ms.
func (l *Local) ClockOffset(_ context.Context, host string) (time.Duration, time.Duration, error) {
	return l.offsets[host], time.Millisecond, nil
}

// Start runs a load agent in this process, recording the job it reads.
func (l *Local) Start(ctx context.Context, host, bin string) (*Proc, error) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	br := bufio.NewReader(inR)
	tap := &jobTap{l: l, br: br}
	tee := io.MultiReader(tap, br)
	go func() {
		err := load.RunAgentClock(context.Background(), tee, outW, nil, tap.clock)
		outW.Close()
		inR.Close()
		done <- err
	}()
	l.mu.Lock()
	l.started++
	l.mu.Unlock()
	var once sync.Once
	var err error
	return &Proc{Stdin: inW, Stdout: outR, Wait: func() error { once.Do(func() { err = <-done }); return err }}, nil
}

// jobTap records the job line as the agent reads it.
type jobTap struct {
	l       *Local
	br      *bufio.Reader
	done    bool
	startAt time.Time // the job's, once read
}

// clock is the clock the agent checks its job against: this machine's,
// but never past the job's start. An in-process agent shares the
// orchestrator's clock, so a job it reads late was only held up by this
// machine's load, which must not make it refuse the job (a remote agent's
// refusal of a late start is load's own test's).
func (t *jobTap) clock() time.Time {
	now := time.Now()
	if !t.startAt.IsZero() && now.After(t.startAt) {
		return t.startAt
	}
	return now
}

func (t *jobTap) Read(p []byte) (int, error) {
	if t.done {
		return 0, io.EOF
	}
	t.done = true
	line, err := t.br.ReadBytes('\n')
	var j load.Job
	if json.Unmarshal(line, &j) == nil {
		t.startAt = j.StartAt
		t.l.mu.Lock()
		t.l.Jobs = append(t.l.Jobs, j)
		t.l.mu.Unlock()
	}
	n := copy(p, line) // jobs are far smaller than the agent's read buffer
	if n < len(line) {
		return n, io.ErrShortBuffer
	}
	return n, err
}

// StartTelemetryAgent runs the telemetry agent in-process on this machine.
func (l *Local) StartTelemetryAgent(_ context.Context, host, bin string) (*Proc, error) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := telemetry.RunAgent(context.Background(), telemetry.HostFS, inR, outW)
		outW.Close()
		inR.Close()
		done <- err
	}()
	return &Proc{Stdin: inW, Stdout: outR, Wait: func() error { return <-done }}, nil
}
