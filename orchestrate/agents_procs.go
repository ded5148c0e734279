package orchestrate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"benchbed/load"
	"benchbed/remote"
	"benchbed/results"
)

// startAgents starts one agent per entry of hosts; on a failure the ones
// started are stopped.
func startAgents(ctx context.Context, hs AgentHosts, hosts []string, bins map[string]string) ([]*AgentProc, error) {
	procs := make([]*AgentProc, 0, len(hosts))
	for _, h := range hosts {
		p, err := hs.Start(ctx, h, bins[h])
		if err != nil {
			stopAgents(procs)
			return nil, fmt.Errorf("%s: starting an agent: %w", h, err)
		}
		procs = append(procs, p)
	}
	return procs, nil
}

// stopAgents closes the agents' stdins (they stop) and waits for them.
func stopAgents(procs []*AgentProc) error {
	var errs []error
	for _, p := range procs {
		p.Stdin.Close()
	}
	for _, p := range procs {
		go func() { _, _ = io.Copy(io.Discard, p.Stdout) }()
		if err := p.Wait(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// keepStreams tees each agent's stdout into r.LogDir (when set) and
// returns the function that closes the files.
func (r AgentRun) keepStreams(procs []*AgentProc, hosts []string) (func(), error) {
	if r.LogDir == "" {
		return func() {}, nil
	}
	if err := os.MkdirAll(r.LogDir, 0o750); err != nil {
		return nil, err
	}
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	for i, p := range procs {
		f, err := os.Create(filepath.Join(r.LogDir, fmt.Sprintf("agent-%d-%s.jsonl", i, results.SafeName(hosts[i]))))
		if err != nil {
			closeAll()
			return nil, err
		}
		files = append(files, f)
		p.Stdout = io.TeeReader(p.Stdout, f)
	}
	return closeAll, nil
}

// collect merges the agents' streams, stops the agents when ctx ends, and
// waits for every process.
func collect(ctx context.Context, procs []*AgentProc, hosts []string, live func(load.Live), sendErr error) (*load.Merged, error) {
	streams := make([]io.Reader, len(procs))
	for i, p := range procs {
		streams[i] = p.Stdout
	}
	done := make(chan struct{})
	var once sync.Once
	closeAll := func() {
		once.Do(func() {
			for _, p := range procs {
				p.Stdin.Close()
			}
		})
	}
	go func() {
		select {
		case <-ctx.Done():
			closeAll()
		case <-done:
		}
	}()
	if sendErr != nil {
		closeAll()
	}
	m := load.MergeStreams(streams, live)
	close(done)
	closeAll()
	errs := []error{sendErr, m.Err}
	for i, p := range procs {
		if err := p.Wait(); err != nil {
			errs = append(errs, fmt.Errorf("agent %d on %s: %w", i, hosts[i], err))
		}
	}
	if ctx.Err() != nil {
		errs = append(errs, fmt.Errorf("agents stopped: %w", ctx.Err()))
	}
	return m, errors.Join(errs...)
}

// PoolAgents runs agents over SSH: the benchbed binary Binary (default:
// this executable) is uploaded content-addressed into Dir ("" = remote's
// default) and started as "<bin> agent".
type PoolAgents struct {
	Pool   *remote.Pool
	Binary string
	Dir    string
}

var _ AgentHosts = PoolAgents{}

// Install uploads the binary once per host and content.
func (a PoolAgents) Install(ctx context.Context, host string) (string, error) {
	bin := a.Binary
	if bin == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", err
		}
		bin = exe
	}
	return a.Pool.UploadBinary(ctx, host, bin, a.Dir)
}

// ClockOffset reads the host's clock with date(1) and compares it with the
// middle of the round trip.
func (a PoolAgents) ClockOffset(ctx context.Context, host string) (time.Duration, time.Duration, error) {
	var best, unc time.Duration
	for i := 0; i < 3; i++ { // the shortest round trip of three is the best measure
		t0 := time.Now()
		res, err := a.Pool.Run(ctx, host, "date +%s%N")
		t1 := time.Now()
		if err != nil {
			return 0, 0, err
		}
		ns, err := strconv.ParseInt(strings.TrimSpace(string(res.Stdout)), 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("date answered %q", strings.TrimSpace(string(res.Stdout)))
		}
		mid := t0.Add(t1.Sub(t0) / 2)
		if rtt := t1.Sub(t0); i == 0 || rtt/2 < unc {
			best, unc = time.Unix(0, ns).Sub(mid), rtt/2
		}
	}
	return best, unc, nil
}

// Start runs "<bin> agent" on host with its stdin and stdout as pipes.
func (a PoolAgents) Start(ctx context.Context, host, bin string) (*AgentProc, error) {
	s, err := a.Pool.Start(ctx, host, shellQuote(bin)+" agent")
	if err != nil {
		return nil, err
	}
	return &AgentProc{Stdin: s.Stdin, Stdout: s.Stdout, Wait: s.Wait}, nil
}
