package main

import (
	"path/filepath"
	"slices"
	"time"

	"benchbed/plan"
	"benchbed/plan/schedule"
	"benchbed/results/rundir"
)

// pastRunsKept is how many of a testbed's newest runs the estimate learns from.
const pastRunsKept = 5

// planCosts returns the step times `benchbed plan` and the sweep's closing
// line estimate with: learnt from the journals of tb's newest earlier runs
// under root (the testbed's runs_dir when ""), the run except left out, or
// measured defaults when none has a finished cell of tb's matrix.
func planCosts(tb *plan.Testbed, root, except string) *schedule.Costs {
	if root == "" {
		root = tb.Sweep.RunsDir
	}
	journals, _ := filepath.Glob(filepath.Join(rundir.TestbedDir(root, tb.Name), "*", rundir.JournalFile))
	slices.Sort(journals) // run ids start with their UTC time
	slices.Reverse(journals)
	var runs []schedule.PastRun
	for _, j := range journals {
		if len(runs) == pastRunsKept {
			break
		}
		r, err := rundir.Open(filepath.Dir(j), tb.Name)
		if err != nil || r.ID == except {
			continue
		}
		if pr, ok := pastRun(r); ok {
			runs = append(runs, pr)
		}
	}
	c, _ := schedule.Learn(tb, runs)
	return c
}

// pastRun reads one run's journal as the schedule learns from it.
func pastRun(r *rundir.Run) (schedule.PastRun, bool) {
	entries, err := r.ReadJournal()
	if err != nil || len(entries) == 0 {
		return schedule.PastRun{}, false
	}
	pr := schedule.PastRun{ID: r.ID}
	for _, st := range rundir.PairSteps(entries) {
		pr.Steps = append(pr.Steps, schedule.PastStep{Kind: schedule.Kind(st.Name), Cell: st.Cell, OK: st.Status == rundir.StepOK, Duration: st.Duration})
	}
	return pr, true
}

// sweepEstimateLine is the sweep's closing line: how long the run took by
// its journal (its first entry to its last) beside what `benchbed plan`
// would have estimated for the cells it ran, from the testbed's other
// runs. "" when the journal says too little, when no cell was recorded (a
// sweep refused before its first cell: the estimate is of cells, and the
// time of a refusal says nothing about it), or when the run was resumed
// (its journal spans more than one sweep).
func sweepEstimateLine(tb *plan.Testbed, root string, run *rundir.Run, resumed bool) string {
	entries, err := run.ReadJournal()
	if err != nil || len(entries) < 2 || resumed {
		return ""
	}
	byID := map[string]plan.Cell{}
	for _, c := range schedule.AllCells(tb) {
		byID[c.ID] = c
	}
	var cells []plan.Cell
	seen := map[string]bool{}
	for _, e := range entries {
		if c, ok := byID[e.Cell]; ok && e.Step == string(schedule.StepRecord) && !seen[e.Cell] {
			seen[e.Cell] = true
			cells = append(cells, c)
		}
	}
	if len(cells) == 0 {
		return ""
	}
	p := schedule.Of(tb, cells)
	p.Reestimate(planCosts(tb, root, run.ID))
	took := entries[len(entries)-1].Time.Sub(entries[0].Time)
	return schedule.EstimateError(p.Estimate, took.Round(time.Second))
}
