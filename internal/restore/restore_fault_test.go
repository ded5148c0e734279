package restore

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"benchbed/plan"
	"benchbed/plan/decode"
	"benchbed/remote"
	"benchbed/results/rundir"
)

// scriptHosts stands in for the hosts: it keeps every script run, fails
// the one that is fail, and calls seen with each before it answers.
type scriptHosts struct {
	mu   sync.Mutex
	ran  []string // host + ": " + script
	fail string
	seen func(cmd string)
}

func (h *scriptHosts) Run(_ context.Context, host, cmd string) (*remote.Result, error) {
	h.mu.Lock()
	h.ran = append(h.ran, host+": "+cmd)
	h.mu.Unlock()
	if h.seen != nil {
		h.seen(cmd)
	}
	if cmd == h.fail {
		return nil, errors.New("connection lost")
	}
	return &remote.Result{Host: host, Cmd: cmd}, nil
}

func (h *scriptHosts) FanOut(ctx context.Context, hosts []string, fn func(context.Context, string) error) *remote.Summary {
	for _, host := range hosts {
		_ = fn(ctx, host)
	}
	return &remote.Summary{}
}

// faultsLab loads testbeds/lab/faults-lab.hcl.
func faultsLab(t *testing.T) *plan.Testbed {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(file), "..", "..", "testbeds", "lab", "faults-lab.hcl")
	tb, diags := decode.Load(path, decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatalf("%s: %v", path, diags)
	}
	return tb
}

// TestRestoreUndoesWhatFaultsJSONLeaves: the restore undoes the faults
// faults.json does not say undone, checks every one (and that no state
// file is left), goes on past a variant the testbed lost, and says what
// failed.
func TestRestoreUndoesWhatFaultsJSONLeaves(t *testing.T) {
	tb := faultsLab(t)
	recs := []rundir.FaultRecord{
		{Variant: "normal+paused", Index: 0, IDs: []string{"f0-stor1"}, Kind: plan.FaultPause, Hosts: []string{"stor1"}, AppliedS: 20},
		{Variant: "gone", Index: 0, Kind: plan.FaultPause, Hosts: []string{"stor2"}},
		{Variant: "normal+slow_disk", Index: 0, IDs: []string{"f0-stor1"}, Kind: plan.FaultSlowDisk, Hosts: []string{"stor1"}, AppliedS: 20, UndoneS: 40},
	}
	paused, err := recordTargets(tb, recs[0])
	if err != nil || len(paused) != 1 {
		t.Fatalf("targets %v (%v)", paused, err)
	}
	slow, err := recordTargets(tb, recs[2])
	if err != nil || len(slow) != 1 {
		t.Fatalf("targets %v (%v)", slow, err)
	}
	hosts := &scriptHosts{}
	var said []string
	err = undoFaults(context.Background(), tb, hosts, recs, nil, func(f string, a ...any) { said = append(said, f) })
	if err == nil || !strings.Contains(err.Error(), "variant gone") {
		t.Fatalf("err %v, want the lost variant named", err)
	}
	want := []string{
		"stor1: " + paused[0].Scripts.Undo,
		"stor1: " + paused[0].Scripts.Check + noStateLeft("f0-stor1"),
		"stor1: " + slow[0].Scripts.Check + noStateLeft("f0-stor1"),
	}
	if !slices.Equal(hosts.ran, want) {
		t.Fatalf("ran %d scripts, want the pause's undo, then the pause's and slow disk's checks:\n%q", len(hosts.ran), hosts.ran)
	}
	if len(said) != 1 {
		t.Errorf("said %q, want the one undo", said)
	}
	hosts = &scriptHosts{fail: slow[0].Scripts.Check + noStateLeft("f0-stor1")}
	if err := undoFaults(context.Background(), tb, hosts, recs[2:], nil, func(string, ...any) {}); err == nil ||
		!strings.Contains(err.Error(), "check of slow_disk fault 0 of variant normal+slow_disk on stor1") {
		t.Errorf("a failed check: err %v, want it named", err)
	}
}
