package agents

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"benchbed/results/telemetry"
)

// barrierTelemetry holds every install until n are in flight (a start
// host after host would never release the first), and fails the agent's
// start on host fail.
type barrierTelemetry struct {
	Local
	n       int
	fail    string
	mu      sync.Mutex
	waiting int
	release chan struct{}
	stopped []string // hosts whose started agent was stopped
}

func (b *barrierTelemetry) Install(ctx context.Context, host string) (string, error) {
	b.mu.Lock()
	b.waiting++
	if b.waiting == b.n {
		close(b.release)
	}
	b.mu.Unlock()
	select {
	case <-b.release:
		return "/opt/benchbed", nil
	case <-time.After(20 * time.Second):
		return "", errors.New("the hosts' installs did not run side by side")
	}
}

func (b *barrierTelemetry) StartTelemetryAgent(ctx context.Context, host, bin string) (*Proc, error) {
	if host == b.fail {
		return nil, errors.New("ssh: connection refused")
	}
	p, err := b.Local.StartTelemetryAgent(ctx, host, bin)
	if err != nil {
		return nil, err
	}
	wait := p.Wait
	p.Wait = func() error {
		b.mu.Lock()
		b.stopped = append(b.stopped, host)
		b.mu.Unlock()
		return wait()
	}
	return p, nil
}

func telemetryCfgs(hosts ...string) []telemetry.Config {
	var out []telemetry.Config
	for _, h := range hosts {
		out = append(out, telemetry.Config{Host: h, IntervalMs: 100})
	}
	return out
}

// TestStartTelemetryAllHostsAtOnce: three hosts' agents are installed and
// started side by side, kept in the configs' order, each ready.
func TestStartTelemetryAllHostsAtOnce(t *testing.T) {
	b := &barrierTelemetry{n: 3, release: make(chan struct{})}
	dir := t.TempDir()
	ta, err := StartTelemetry(context.Background(), b, telemetryCfgs("proxy1", "stor1", "stor2"), func(h string) (string, error) {
		return filepath.Join(dir, h+".jsonl"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ta.Stop()
	if !slices.Equal(ta.Hosts, []string{"proxy1", "stor1", "stor2"}) {
		t.Fatalf("hosts %v, want the configs' order", ta.Hosts)
	}
	for i, st := range ta.streams {
		if st.Ready() == nil {
			t.Errorf("%s: no ready line", ta.Hosts[i])
		}
	}
}

// TestStartTelemetryFailureStopsTheOthers: one host's agent that cannot
// start fails the start with its name, and the agents started on the
// other hosts are stopped.
func TestStartTelemetryFailureStopsTheOthers(t *testing.T) {
	b := &barrierTelemetry{n: 3, fail: "stor1", release: make(chan struct{})}
	_, err := StartTelemetry(context.Background(), b, telemetryCfgs("proxy1", "stor1", "stor2"), func(h string) (string, error) {
		return filepath.Join(t.TempDir(), h+".jsonl"), nil
	})
	if err == nil || err.Error() != "stor1: telemetry agent: ssh: connection refused" {
		t.Fatalf("error %v: want stor1's", err)
	}
	slices.Sort(b.stopped)
	if !slices.Equal(b.stopped, []string{"proxy1", "stor2"}) {
		t.Fatalf("stopped %v, want proxy1 and stor2", b.stopped)
	}
}
