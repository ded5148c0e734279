package agents

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"benchbed/results/telemetry"
)

// TelemetryHosts is what telemetry needs of a testbed's hosts: benchbed
// installed, and `benchbed telemetry-agent` started. PoolAgents is one.
type TelemetryHosts interface {
	Installer
	StartTelemetryAgent(ctx context.Context, host, bin string) (*Proc, error)
}

var _ TelemetryHosts = PoolAgents{}

// StartTelemetryAgent runs "<bin> telemetry-agent" on host.
func (a PoolAgents) StartTelemetryAgent(ctx context.Context, host, bin string) (*Proc, error) {
	return a.startAgent(ctx, host, bin, "telemetry-agent")
}

// readyTimeout is how long a telemetry agent may take to say what it
// resolved.
const readyTimeout = 30 * time.Second

// Telemetry are one cell's telemetry agents, one per host: their
// samples go to a file per host, only the latest kept in memory.
type Telemetry struct {
	Hosts   []string
	procs   []*Proc
	streams []*telemetry.Stream
	files   []*os.File
	wg      sync.WaitGroup
	mu      sync.Mutex
	errs    []error
	stopped bool
	gen     int // phase changes asked: a pending phaseAt acts only if none came after it
}

// StartTelemetry installs benchbed on every host and starts an agent on
// each, all hosts at once, then sends each its config and waits for each
// one's ready line; a failure stops those started.
func StartTelemetry(ctx context.Context, th TelemetryHosts, cfgs []telemetry.Config, dir func(host string) (string, error)) (*Telemetry, error) {
	procs, err := spawnTelemetry(ctx, th, cfgs)
	if err != nil {
		return nil, err
	}
	ta := &Telemetry{}
	for i, c := range cfgs {
		if err := ta.attach(c, procs[i], dir); err != nil {
			for _, p := range procs[i+1:] {
				abandon(p)
			}
			ta.Stop()
			return nil, fmt.Errorf("%s: telemetry agent: %w", c.Host, err)
		}
	}
	if err := ta.awaitReady(ctx); err != nil {
		ta.Stop()
		return nil, err
	}
	return ta, nil
}

// spawnTelemetry installs benchbed and starts the telemetry agent on every
// config's host, side by side (each is an SSH session's start, a
// content-addressed upload's check and a process's start); on a failure
// the ones started are stopped, and the first failure in the configs'
// order returned.
func spawnTelemetry(ctx context.Context, th TelemetryHosts, cfgs []telemetry.Config) ([]*Proc, error) {
	return startEach(ctx, len(cfgs), func(ctx context.Context, i int) (*Proc, error) {
		bin, err := th.Install(ctx, cfgs[i].Host)
		var p *Proc
		if err == nil {
			p, err = th.StartTelemetryAgent(ctx, cfgs[i].Host, bin)
		}
		if err != nil {
			return p, fmt.Errorf("%s: telemetry agent: %w", cfgs[i].Host, err)
		}
		return p, nil
	}, func(started []*Proc) {
		for _, p := range started {
			abandon(p)
		}
	})
}

// abandon stops a started agent that has no config yet (nil: none).
func abandon(p *Proc) {
	if p == nil {
		return
	}
	p.Stdin.Close()
	_, _ = io.Copy(io.Discard, p.Stdout)
	_ = p.Wait()
}

// attach keeps the started agent p of config c: its samples go to the
// host's file, and it gets its config.
func (ta *Telemetry) attach(c telemetry.Config, p *Proc, dir func(string) (string, error)) error {
	path, err := dir(c.Host)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(path), 0o750)
	}
	var f *os.File
	if err == nil {
		f, err = os.Create(path)
	}
	if err != nil {
		abandon(p)
		return err
	}
	st := &telemetry.Stream{Host: c.Host}
	ta.Hosts, ta.procs, ta.streams, ta.files = append(ta.Hosts, c.Host), append(ta.procs, p), append(ta.streams, st), append(ta.files, f)
	ta.wg.Add(1)
	go func() {
		defer ta.wg.Done()
		if err := st.Consume(p.Stdout, f); err != nil {
			ta.fail(err)
			_, _ = io.Copy(io.Discard, p.Stdout)
		}
	}()
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	_, err = p.Stdin.Write(append(b, '\n'))
	return err
}

func (ta *Telemetry) fail(err error) {
	ta.mu.Lock()
	defer ta.mu.Unlock()
	ta.errs = append(ta.errs, err)
}

// awaitReady waits until every agent has said what it resolved.
func (ta *Telemetry) awaitReady(ctx context.Context) error {
	deadline := time.Now().Add(readyTimeout)
	for i, st := range ta.streams {
		for st.Ready() == nil {
			if err := ta.err(); err != nil {
				return err
			}
			if time.Now().After(deadline) || ctx.Err() != nil {
				return fmt.Errorf("%s: the telemetry agent did not start in %v", ta.Hosts[i], readyTimeout)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return ta.err()
}

func (ta *Telemetry) err() error {
	ta.mu.Lock()
	defer ta.mu.Unlock()
	return errors.Join(ta.errs...)
}

// Warnings are what the agents could not resolve, each naming its host.
func (ta *Telemetry) Warnings() []string {
	var out []string
	for i, st := range ta.streams {
		if r := st.Ready(); r != nil {
			for _, w := range r.Warnings {
				out = append(out, ta.Hosts[i]+": "+w)
			}
		}
	}
	return out
}

// PhaseChange is a phase and when it begins.
type PhaseChange struct {
	Phase string
	At    time.Time
}

// PhasesAt switches every agent to each phase at its time, unless phase,
// another phasesAt or stop comes first.
func (ta *Telemetry) PhasesAt(changes ...PhaseChange) {
	ta.mu.Lock()
	defer ta.mu.Unlock()
	ta.gen++
	gen := ta.gen
	for _, c := range changes {
		time.AfterFunc(time.Until(c.At), func() {
			ta.mu.Lock()
			defer ta.mu.Unlock()
			if ta.gen == gen {
				ta.send(c.Phase)
			}
		})
	}
}

// Phase switches every agent to phase p now.
func (ta *Telemetry) Phase(p string) {
	ta.mu.Lock()
	defer ta.mu.Unlock()
	ta.gen++
	ta.send(p)
}

// send writes the phase line to every agent; ta.mu is held.
func (ta *Telemetry) send(p string) {
	if ta.stopped {
		return
	}
	line := []byte(`{"phase":"` + p + `"}` + "\n")
	for i, proc := range ta.procs {
		if _, err := proc.Stdin.Write(line); err != nil {
			ta.errs = append(ta.errs, fmt.Errorf("%s: telemetry agent: switching to %s: %w", ta.Hosts[i], p, err))
		}
	}
}

// Latest returns every host's latest sample.
func (ta *Telemetry) Latest() []telemetry.Sample {
	var out []telemetry.Sample
	for _, st := range ta.streams {
		if s := st.Latest(); s != nil {
			out = append(out, *s)
		}
	}
	return out
}

// Stop closes the agents' stdins (they stop after their last sample),
// waits for their streams and processes, and closes the files.
func (ta *Telemetry) Stop() error {
	ta.mu.Lock()
	already := ta.stopped
	ta.stopped = true
	ta.mu.Unlock()
	if already {
		return ta.err()
	}
	for _, p := range ta.procs {
		p.Stdin.Close()
	}
	ta.wg.Wait()
	for i, p := range ta.procs {
		if err := p.Wait(); err != nil {
			ta.fail(fmt.Errorf("%s: telemetry agent: %w", ta.Hosts[i], err))
		}
		if err := ta.files[i].Close(); err != nil {
			ta.fail(err)
		}
	}
	return ta.err()
}
