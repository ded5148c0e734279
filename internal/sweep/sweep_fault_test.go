package sweep

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"benchbed/internal/labtest"
	"benchbed/internal/step"
	"benchbed/plan"
	"benchbed/results/rundir"
)

// faultCellOf builds the fault cell of variant on tb as the probe does,
// over hosts, its faults.json in a run under a temporary directory.
func faultCellOf(t *testing.T, tb *plan.Testbed, variant string, hosts *labtest.ScriptHosts) (*faultCell, *step.Runner, *rundir.Run) {
	t.Helper()
	run, err := rundir.NewRun(t.TempDir(), tb.Name, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	r := &step.Runner{QuietUndo: true}
	c := plan.Cell{ID: "001-" + variant, Variant: tb.Variant(variant), Workload: tb.Workloads[0]}
	in := inputs{tb: tb, run: run}
	ex := &cellRun{inputs: in, s: &Sweeper{inputs: in}, c: c, r: labtest.RenderVariant(t, tb, variant), runner: r}
	fc, err := newFaultCell(ex)
	if err != nil {
		t.Fatal(err)
	}
	fc.hosts = hosts
	return fc, r, run
}

// TestFaultApplyPushesItsUndoFirst: a fault's undo is on the cell's stack
// and faults.json names the fault before its apply acts, so that an apply
// that fails half-way (a lost session) is undone and checked as the cell
// unwinds; once undone, the fault-undo step finds no undo left to run
// (an undo is reachable from the stack only).
func TestFaultApplyPushesItsUndoFirst(t *testing.T) {
	tb := labtest.FaultsLab(t)
	hosts := &labtest.ScriptHosts{}
	fc, r, run := faultCellOf(t, tb, "normal+paused", hosts)
	if len(fc.timed) != 2 || fc.timed[0].kind != "fault-apply" || fc.timed[1].kind != "fault-undo" {
		t.Fatalf("timed steps %+v, want one apply then its undo", fc.timed)
	}
	apply := &fc.timed[0]
	sc := apply.targets[0].Scripts
	var pending []string
	var recs []rundir.FaultRecord
	hosts.Fail = sc.Apply
	hosts.Seen = func(cmd string) {
		if cmd == sc.Apply {
			_, pending = r.Left()
			dir, _ := run.CellDir(fc.ex.c.ID)
			recs, _ = rundir.ReadFaults(dir)
		}
	}
	if err := fc.act(context.Background(), apply); err == nil || !strings.Contains(err.Error(), "pause fault on stor1: connection lost") {
		t.Fatalf("apply err %v, want the host's failure", err)
	}
	if !slices.Equal(pending, []string{"fault-apply"}) {
		t.Errorf("undos pending as the apply ran: %v, want its own", pending)
	}
	if len(recs) != 1 || recs[0].Variant != "normal+paused" || recs[0].Index != 0 || !slices.Equal(recs[0].IDs, []string{"f0-stor1"}) {
		t.Errorf("faults.json as the apply ran: %+v, want the fault named", recs)
	}
	if err := r.Unwind(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []string{"stor1: " + sc.Apply, "stor1: " + sc.Undo + "\n" + sc.Check}
	if !slices.Equal(hosts.Ran, want) {
		t.Fatalf("ran %q, want the apply then its undo and check", hosts.Ran)
	}
	if err := fc.act(context.Background(), &fc.timed[1]); err != nil || len(hosts.Ran) != 2 {
		t.Errorf("the fault-undo step after the unwind ran %d scripts (%v), want none", len(hosts.Ran)-2, err)
	}
	dir, _ := run.CellDir(fc.ex.c.ID)
	if recs, _ := rundir.ReadFaults(dir); len(recs) != 1 || recs[0].UndoneS <= 0 {
		t.Errorf("faults.json after the undo: %+v, want it undone", recs)
	}
}

// entries keeps a runner's journal.
type entries struct {
	mu sync.Mutex
	es []rundir.Entry
}

func (e *entries) Add(x rundir.Entry) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.es = append(e.es, x)
	return nil
}

// TestFaultTimelineUndoesAtTheRunsEnd: the timer applies a fault at its
// time after the agents' start, journaled as the plan's fault-apply; a
// fault whose undo the run's end comes before (for = "end") is undone, as
// the plan's fault-undo, once the agents return.
func TestFaultTimelineUndoesAtTheRunsEnd(t *testing.T) {
	tb := labtest.FaultsLab(t)
	hosts := &labtest.ScriptHosts{}
	fc, r, run := faultCellOf(t, tb, "normal+paused", hosts)
	j := &entries{}
	r.Journal, r.Cell = j, fc.ex.c.ID
	fc.timed[0].at, fc.timed[1].at = 10*time.Millisecond, time.Hour
	sc := fc.timed[0].targets[0].Scripts
	started, stop := make(chan time.Time, 1), make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- fc.timeline(context.Background(), started, stop, func(error) {}) }()
	started <- time.Now()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(5 * time.Millisecond) { // a hang guard
		n := hosts.Count()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the apply never ran")
		}
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := fc.finish(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []string{"stor1: " + sc.Apply, "stor1: " + sc.Undo + "\n" + sc.Check}
	if !slices.Equal(hosts.Ran, want) {
		t.Fatalf("ran %q, want the apply, then its undo once the run returned", hosts.Ran)
	}
	var got []string
	for _, e := range j.es {
		got = append(got, e.Cell+"/"+e.Step+":"+e.Status)
	}
	cell := fc.ex.c.ID
	if w := []string{cell + "/fault-apply:started", cell + "/fault-apply:ok", cell + "/fault-undo:started", cell + "/fault-undo:ok"}; !slices.Equal(got, w) {
		t.Errorf("journal %v, want %v", got, w)
	}
	if !strings.Contains(j.es[0].Detail, "variant normal+paused fault 0 (pause) ids f0-stor1 on stor1") {
		t.Errorf("apply journaled with %q, want variant, index, ids and hosts", j.es[0].Detail)
	}
	dir, _ := run.CellDir(cell)
	recs, _ := rundir.ReadFaults(dir)
	if len(recs) != 1 || recs[0].AppliedS <= 0 || recs[0].UndoneS < recs[0].AppliedS {
		t.Errorf("faults.json %+v, want applied then undone", recs)
	}
}
