package rundir

import "time"

// JournalStep is one journal step with its outcome and duration.
type JournalStep struct {
	Name     string
	Cell     string
	Host     string
	Status   string // StepOK, StepFailed, StepSkipped, or StepUnfinished (no outcome)
	Start    time.Time
	Duration time.Duration
	Detail   string // a failed step's error (masked by the sweep)
}

type stepKey struct{ name, cell, host string }

// PairSteps pairs each journal "started" entry with the outcome that follows
// it, in the order the steps started. A step that never ended (the run was
// killed) is "unfinished", lasting until the journal's last entry.
func PairSteps(entries []Entry) []JournalStep {
	var out []JournalStep
	open := map[stepKey]int{}
	for _, e := range entries {
		k := stepKey{e.Step, e.Cell, e.Host}
		if e.Status == StepStarted {
			open[k] = len(out)
			out = append(out, JournalStep{Name: e.Step, Cell: e.Cell, Host: e.Host, Status: StepUnfinished, Start: e.Time})
			continue
		}
		i, ok := open[k]
		if !ok { // an outcome without a start: an instant step
			out = append(out, JournalStep{Name: e.Step, Cell: e.Cell, Host: e.Host, Status: e.Status, Start: e.Time, Detail: failDetail(e)})
			continue
		}
		delete(open, k)
		out[i].Status, out[i].Duration, out[i].Detail = e.Status, e.Time.Sub(out[i].Start), failDetail(e)
	}
	if len(entries) > 0 {
		last := entries[len(entries)-1].Time
		for _, i := range open {
			out[i].Duration = last.Sub(out[i].Start)
		}
	}
	return out
}

// failDetail keeps a failed step's detail (its error); an ok step's detail
// only repeats its duration.
func failDetail(e Entry) string {
	if e.Status == StepOK {
		return ""
	}
	return e.Detail
}
