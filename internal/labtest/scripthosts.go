package labtest

import (
	"context"
	"errors"
	"sync"
	"testing"

	"benchbed/plan"
	"benchbed/remote"
)

// ScriptHosts stands in for the hosts of a fault test: it keeps every script
// run (Ran), fails the one that is Fail, and calls Seen with each before it
// answers.
type ScriptHosts struct {
	mu   sync.Mutex
	Ran  []string // host + ": " + script
	Fail string
	Seen func(cmd string)
}

// Run keeps cmd, then fails it when it is h.Fail.
func (h *ScriptHosts) Run(_ context.Context, host, cmd string) (*remote.Result, error) {
	h.mu.Lock()
	h.Ran = append(h.Ran, host+": "+cmd)
	h.mu.Unlock()
	if h.Seen != nil {
		h.Seen(cmd)
	}
	if cmd == h.Fail {
		return nil, errors.New("connection lost")
	}
	return &remote.Result{Host: host, Cmd: cmd}, nil
}

// Count is how many scripts ran so far, safe while they run.
func (h *ScriptHosts) Count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.Ran)
}

// FanOut runs fn on each host in turn.
func (h *ScriptHosts) FanOut(ctx context.Context, hosts []string, fn func(context.Context, string) error) *remote.Outcomes {
	for _, host := range hosts {
		_ = fn(ctx, host)
	}
	return &remote.Outcomes{}
}

// FaultsLab loads testbeds/lab/faults-lab.hcl from this tree.
func FaultsLab(t *testing.T) *plan.Testbed {
	t.Helper()
	return labFile(t, "faults-lab.hcl")
}
