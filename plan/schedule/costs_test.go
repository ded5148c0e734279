package schedule

import (
	"strings"
	"testing"
	"time"

	"benchbed/plan/decode"
	"benchbed/plan/plantest"
)

// switchBackPlan is four cells that switch a ring and an object server's
// setting back and forth (first, changed, unchanged, changed by the
// schedule), 30 s warm-ups and 1 s runs.
func switchBackPlan(t *testing.T) *Schedule {
	text := plantest.Fixture(t, "minimal.hcl") + `
service "object-server" {
  role     = "object"
  settings = { DEFAULT = { workers = 2 } }
}
variant "spp" {
  set "object-server" { DEFAULT = { servers_per_port = 1 } }
  ring "object" { port_per_disk = true }
}
variant "normal" {}
sweep {
  repeat = 2
  warmup = 30
}
`
	return New(plantest.Load(t, text, decode.LoadOptions{}, nil))
}

// journalOf is what a sweep of p would journal if every step took what
// cost says of its kind and place, and each warm-up and run lead longer
// than configured; it returns the run and its wall time.
func journalOf(p *Schedule, cost func(kind Kind, first, unchanged bool) time.Duration, lead time.Duration) (PastRun, time.Duration) {
	r := PastRun{ID: "20261201T000000Z-abcdef"}
	var wall time.Duration
	add := func(kind Kind, cell string, d time.Duration) {
		r.Steps = append(r.Steps, PastStep{Kind: kind, Cell: cell, OK: true, Duration: d})
		wall += d
	}
	for _, kind := range Kinds(p.Before) {
		if kind != StepPrefill { // the plan's prefill has nothing to do
			add(kind, "", cost(kind, false, false))
		}
	}
	for i, cp := range p.Cells {
		for _, kind := range Kinds(cp.Steps) {
			d := cost(kind, i == 0, allUnchanged(cp.Steps, kind))
			if kind == StepWarmup || kind == StepRun {
				d = cp.Steps[slicesIndex(cp.Steps, kind)].Duration + lead
			}
			add(kind, cp.Cell.ID, d)
		}
	}
	for _, kind := range Kinds(p.Finally) {
		add(kind, "", cost(kind, false, false))
	}
	return r, wall
}

func slicesIndex(steps []Step, kind Kind) int {
	for i, s := range steps {
		if s.Kind == kind {
			return i
		}
	}
	return -1
}

// TestLearntEstimatePredictsItsRun: costs learnt from a run's journal
// estimate that run's wall time, each kind at its place (first cell,
// changing, unchanged), the agents' lead included.
func TestLearntEstimatePredictsItsRun(t *testing.T) {
	p := switchBackPlan(t)
	cost := func(kind Kind, first, unchanged bool) time.Duration {
		base := time.Duration(len(kind)) * 100 * time.Millisecond // each kind its own time
		switch {
		case first:
			return 10 * base
		case unchanged:
			return base / 10
		}
		return base
	}
	run, wall := journalOf(p, cost, 1500*time.Millisecond)
	c, ok := Learn(p.Testbed, []PastRun{run})
	if !ok || !strings.Contains(c.Source, "learnt from 1 journaled run(s)") {
		t.Fatalf("learnt %v: %+v", ok, c)
	}
	if c.First[StepRestart] != cost(StepRestart, true, false) || c.Changed[StepRestart] != cost(StepRestart, false, false) ||
		c.Unchanged[StepRestart] != cost(StepRestart, false, true) || c.Lead != 1500*time.Millisecond ||
		c.Wide[StepUndoBackup] != cost(StepUndoBackup, false, false) {
		t.Errorf("costs: %+v", c)
	}
	p.Reestimate(c)
	if d := p.Estimate.Total - wall; d < -time.Millisecond || d > time.Millisecond {
		t.Errorf("estimate %v, the run took %v", p.Estimate.Total, wall)
	}
	if p.Estimate.Source != c.Source || !strings.Contains(p.Estimate.Assumptions[0], c.Source) {
		t.Errorf("the estimate does not say where its figures come from: %+v", p.Estimate)
	}
}

// TestLearnNeedsCellsOfTheMatrix: a journal of cells the testbed no longer
// has, or of no finished step, teaches nothing: the defaults stay, and
// say so.
func TestLearnNeedsCellsOfTheMatrix(t *testing.T) {
	p := switchBackPlan(t)
	runs := []PastRun{
		{ID: "a", Steps: []PastStep{{Kind: StepRecord, Cell: "009-gone-w-r1", OK: true, Duration: time.Hour}}},
		{ID: "b", Steps: []PastStep{{Kind: StepRecord, Cell: p.Cells[0].Cell.ID, Duration: time.Hour}}},
	}
	c, ok := Learn(p.Testbed, runs)
	if ok || !strings.HasPrefix(c.Source, "measured defaults") || c.First[StepRestart] != DefaultCosts(p.Testbed).First[StepRestart] {
		t.Errorf("learnt %v: %+v", ok, c)
	}
	if !strings.Contains(c.Source, "not measured") { // the fixture's hosts are no lab's
		t.Errorf("defaults for remote hosts do not say they are the lab's: %s", c.Source)
	}
}

// TestEstimateError: the sweep's closing line gives both times and the
// error as a share of the actual one.
func TestEstimateError(t *testing.T) {
	e := Estimate{Total: 5 * time.Minute, Source: "learnt from 2 journaled run(s)"}
	got := EstimateError(e, 4*time.Minute)
	if got != "took 4m0s, estimated 5m0s (+25%; learnt from 2 journaled run(s))" {
		t.Errorf("EstimateError = %q", got)
	}
}
