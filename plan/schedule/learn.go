package schedule

import (
	"fmt"
	"slices"
	"time"

	"benchbed/plan"
)

// PastStep is one journaled step of an earlier run: its kind (the
// journal's "step"), its cell ("" for a run-wide step), whether it
// finished (the journal's status is rundir.StepOK; its reader says so, as
// plan does not read journals) and how long it took (rundir.PairSteps
// gives them).
type PastStep struct {
	Kind     Kind
	Cell     string
	OK       bool
	Duration time.Duration
}

// PastRun is one earlier run of a testbed: its id and journaled steps, in
// the order they started.
type PastRun struct {
	ID    string
	Steps []PastStep
}

// samples gathers step times by class and kind.
type samples struct {
	first, changed, unchanged, wide map[Kind][]time.Duration
	lead                            []time.Duration
	cells, runs                     int
}

// Learn returns the step costs of runs, earlier runs of tb: each kind's
// median time in a first cell, in later cells that change something and
// in later cells that change nothing (which cells are which is the
// schedule of the cells each run ran, in its order, by tb as it is now),
// the warm-ups' and runs' median time beyond their configured duration,
// and the run-wide steps' medians. Kinds no run journaled keep
// DefaultCosts. ok is false when no run has a finished cell of tb's
// matrix: then there is nothing to learn from.
func Learn(tb *plan.Testbed, runs []PastRun) (c *Costs, ok bool) {
	byID := map[string]plan.Cell{}
	for _, cell := range AllCells(tb) {
		byID[cell.ID] = cell
	}
	sm := samples{first: map[Kind][]time.Duration{}, changed: map[Kind][]time.Duration{},
		unchanged: map[Kind][]time.Duration{}, wide: map[Kind][]time.Duration{}}
	for _, r := range runs {
		sm.add(tb, byID, r)
	}
	c = DefaultCosts(tb)
	if sm.cells == 0 {
		return c, false
	}
	c.Source = fmt.Sprintf("learnt from %d journaled run(s) of testbed %s (%d cells); kinds never journaled: measured defaults", sm.runs, tb.Name, sm.cells)
	medians(c.First, sm.first)
	medians(c.Changed, sm.changed)
	medians(c.Unchanged, sm.unchanged)
	medians(c.Wide, sm.wide)
	if len(sm.lead) > 0 {
		c.Lead = median(sm.lead)
	}
	return c, true
}

// add takes in one run's steps.
func (sm *samples) add(tb *plan.Testbed, byID map[string]plan.Cell, r PastRun) {
	type key struct {
		cell string
		kind Kind
	}
	took := map[key]time.Duration{}
	var cells []plan.Cell
	for _, st := range r.Steps {
		if !st.OK {
			continue
		}
		if st.Cell == "" {
			if st.Kind != StepPrefill && st.Kind != StepCells {
				sm.wide[st.Kind] = append(sm.wide[st.Kind], st.Duration)
			}
			continue
		}
		if _, seen := took[key{st.Cell, StepRecord}]; st.Kind == StepRecord && !seen {
			if cell, known := byID[st.Cell]; known {
				cells = append(cells, cell)
			}
		}
		took[key{st.Cell, st.Kind}] = st.Duration
	}
	if len(cells) == 0 {
		return
	}
	sm.runs++
	for i, cp := range Of(tb, cells).Cells {
		_, ran := took[key{cp.Cell.ID, StepRun}]
		if _, searched := took[key{cp.Cell.ID, StepSearch}]; ran || searched {
			sm.cells++
		}
		for _, kind := range Kinds(cp.Steps) {
			d, ok := took[key{cp.Cell.ID, kind}]
			if !ok {
				continue
			}
			if measured(kind) {
				sm.addLead(tb, cp.Steps, kind, d)
				continue
			}
			switch {
			case i == 0:
				sm.first[kind] = append(sm.first[kind], d)
			case allUnchanged(cp.Steps, kind):
				sm.unchanged[kind] = append(sm.unchanged[kind], d)
			default:
				sm.changed[kind] = append(sm.changed[kind], d)
			}
		}
	}
}

// addLead takes in a warm-up's or run's time beyond its configured one.
func (sm *samples) addLead(tb *plan.Testbed, steps []Step, kind Kind, d time.Duration) {
	i := slices.IndexFunc(steps, func(s Step) bool { return s.Kind == kind })
	s := steps[i]
	if w := tb.Workload(s.Workload); s.Duration <= 0 || w == nil || w.IsCommand() {
		return
	}
	sm.lead = append(sm.lead, max(0, d-s.Duration))
}

// allUnchanged reports whether every step of kind has nothing to change.
func allUnchanged(steps []Step, kind Kind) bool {
	for _, s := range steps {
		if s.Kind == kind && !s.Unchanged {
			return false
		}
	}
	return true
}

// medians sets into[kind] to the median of each kind's samples.
func medians(into map[Kind]time.Duration, from map[Kind][]time.Duration) {
	for kind, ds := range from {
		into[kind] = median(ds)
	}
}

// median is the middle of ds (the mean of the two middle ones).
func median(ds []time.Duration) time.Duration {
	s := slices.Sorted(slices.Values(ds))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
