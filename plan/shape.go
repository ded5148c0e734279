package plan

import (
	"time"

	"benchbed/plan/scenario"
)

// RunShape returns a workload's users and duration, taking the scenario's
// user_count and run_seconds where the workload does not set them. The
// duration is 0 when the run is bounded by an operation count or a fill
// target instead (a fill run ignores run_seconds).
func RunShape(w *Workload) (users int, dur time.Duration) {
	users, dur = w.Users, w.Duration
	sc := scenarioOf(w)
	if users == 0 && sc != nil {
		users = sc.UserCount
	}
	if dur == 0 && w.OperationCount == 0 && w.Fill == nil && sc != nil && sc.RunSeconds > 0 {
		dur = time.Duration(sc.RunSeconds * float64(time.Second))
	}
	return users, dur
}

// scenarioOf parses a workload's scenario JSON (validated by Load); nil if
// it does not parse.
func scenarioOf(w *Workload) *scenario.Scenario {
	if w == nil || w.ScenarioJSON == nil {
		return nil
	}
	sc, err := scenario.Parse(w.ScenarioJSON)
	if err != nil {
		return nil
	}
	return sc
}

// InitialObjects returns how many objects a workload's scenario prefills.
func InitialObjects(w *Workload) int {
	n := 0
	if sc := scenarioOf(w); sc != nil {
		for _, c := range sc.InitialFiles {
			n += c
		}
	}
	return n
}

// ReadsInitial reports whether a workload's scenario reads, updates or
// deletes initial objects (scenario.Scenario.ReadsInitial), which must then
// exist before it runs.
func ReadsInitial(w *Workload) bool {
	sc := scenarioOf(w)
	return sc != nil && sc.ReadsInitial()
}
