package schedule

import (
	"slices"
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/plan/plantest"

	"github.com/google/go-cmp/cmp"
)

// TestReloadSteps: the services a direct manager starts get reload steps
// instead of restarts, in every cell; with mixed managers a cell restarts
// the others first, then reloads, each kind once; a testbed restart
// command keeps a direct service on restarts.
func TestReloadSteps(t *testing.T) {
	tb := plantest.LoadSeed(t)
	for _, s := range tb.Services {
		s.Manager = plan.ManagerDirect
	}
	p := New(tb)
	for _, c := range p.Cells {
		ks := Kinds(c.Steps)
		if slices.Contains(ks, StepRestart) || !slices.Contains(ks, StepReload) {
			t.Errorf("cell %s, every service direct: %v, want reload and no restart", c.Cell.ID, ks)
		}
	}
	first := p.Cells[0]
	var reloaded []string
	for _, s := range first.Steps {
		if s.Kind == StepReload {
			reloaded = append(reloaded, s.Service)
		}
	}
	if len(reloaded) != len(tb.Services) {
		t.Errorf("first cell reloads %v, want every service", reloaded)
	}
	if d := describe(tb, find(first, StepReload)); !strings.Contains(d, "SIGUSR1") {
		t.Errorf("plan's reload line %q does not say how", d)
	}

	tb.Service("proxy-server").Manager = plan.ManagerSystemd
	tb.Service("account-server").Restart = "kill -HUP $(cat /run/account.pid)"
	p = New(tb)
	checkKinds(t, p)
	want := []Kind{"record", "ring-ports", "push-conf", "restart", "reload", "health"}
	if diff := cmp.Diff(want, Kinds(p.Cells[0].Steps)[:len(want)]); diff != "" {
		t.Errorf("first cell, mixed managers (-want +got):\n%s", diff)
	}
	for _, s := range p.Cells[0].Steps {
		wantKind := map[string]Kind{"proxy-server": StepRestart, "account-server": StepRestart}[s.Service]
		if wantKind == "" {
			wantKind = StepReload
		}
		if (s.Kind == StepRestart || s.Kind == StepReload) && s.Kind != wantKind {
			t.Errorf("%s: %s, want %s", s.Service, s.Kind, wantKind)
		}
	}
	// A later cell that changes only the object servers still has both
	// kinds, the restart unchanged (it starts what is not running).
	for _, c := range p.Cells[1:] {
		ks := Kinds(c.Steps)
		if !slices.Contains(ks, StepRestart) || !slices.Contains(ks, StepReload) {
			t.Errorf("cell %s, mixed managers: %v, want both restart and reload", c.Cell.ID, ks)
		}
	}
}

// TestConfsAhead: a cell pushes its confs beside its ring switch only when
// it has both to do.
func TestConfsAhead(t *testing.T) {
	both := []Kind{StepRecord, StepRingPorts, StepPushConf, StepReload}
	for _, c := range []struct {
		kinds []Kind
		skip  map[Kind]bool
		want  bool
	}{
		{both, nil, true},
		{both, map[Kind]bool{StepRingPorts: true}, false},
		{both, map[Kind]bool{StepPushConf: true}, false},
		{[]Kind{StepPushConf, StepReload}, nil, false},
		{[]Kind{StepRingPorts, StepReload}, nil, false},
	} {
		if got := ConfsAhead(c.kinds, c.skip); got != c.want {
			t.Errorf("kinds %v, skip %v: ahead %v, want %v", c.kinds, c.skip, got, c.want)
		}
	}
}
