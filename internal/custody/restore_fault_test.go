package custody

import (
	"context"
	"slices"
	"strings"
	"testing"

	"benchbed/internal/labtest"
	"benchbed/plan"
	"benchbed/results/rundir"
)

// TestRestoreUndoesWhatFaultsJSONLeaves: the restore undoes the faults
// faults.json does not say undone, checks every one (and that no state
// file is left), goes on past a variant the testbed lost, and says what
// failed.
func TestRestoreUndoesWhatFaultsJSONLeaves(t *testing.T) {
	tb := labtest.FaultsLab(t)
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
	hosts := &labtest.ScriptHosts{}
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
	if !slices.Equal(hosts.Ran, want) {
		t.Fatalf("ran %d scripts, want the pause's undo, then the pause's and slow disk's checks:\n%q", len(hosts.Ran), hosts.Ran)
	}
	if len(said) != 1 {
		t.Errorf("said %q, want the one undo", said)
	}
	hosts = &labtest.ScriptHosts{Fail: slow[0].Scripts.Check + noStateLeft("f0-stor1")}
	if err := undoFaults(context.Background(), tb, hosts, recs[2:], nil, func(string, ...any) {}); err == nil ||
		!strings.Contains(err.Error(), "check of slow_disk fault 0 of variant normal+slow_disk on stor1") {
		t.Errorf("a failed check: err %v, want it named", err)
	}
}
