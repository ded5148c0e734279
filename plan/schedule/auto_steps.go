package schedule

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"benchbed/plan"
)

// StepSearch is a capacity search's measured probes (a workload's
// search block): the cell's run. Each of its probes is journaled, as it
// ends, as a StepProbe entry of status ok within it (an instant step:
// no started entry, so the plan need not know their number).
const (
	StepSearch Kind = "search"
	StepProbe  Kind = "probe"
)

// measured reports whether kind is a cell's measured load (the
// estimate counts its duration and the agents' lead).
func measured(kind Kind) bool { return kind == StepWarmup || kind == StepRun || kind == StepSearch }

// WarmupOf is the warm-up a cell of w gets: the workload's own (a fixed
// one, or "auto" at most its max) or the sweep's.
func WarmupOf(tb *plan.Testbed, w *plan.Workload) time.Duration {
	switch {
	case w.Warmup == nil:
		return tb.Sweep.Warmup
	case w.Warmup.Auto:
		return w.Warmup.Max
	}
	return w.Warmup.Duration
}

// autoRun makes run a search (its length the probes the search expects)
// or a run of duration "auto" (at most its max); others stay.
func autoRun(w *plan.Workload, run Step) Step {
	switch {
	case w.Search != nil:
		run.Kind, run.Duration = StepSearch, time.Duration(expectedProbes(w.Search))*w.Search.Probe
	case w.AutoDuration != nil:
		run.Duration = w.AutoDuration.Max
	}
	return run
}

// expectedProbes is about how many probes a search runs: steps doubling
// from From past the middle of the range, the bisection to Resolution,
// one confirmation.
func expectedProbes(s *plan.Search) int {
	res := s.Resolution
	if res <= 0 {
		res = plan.DefaultResolution
	}
	steps := math.Ceil(math.Log2(s.To/s.From)/2) + 1
	bisect := math.Ceil(math.Log2(math.Log2(2) / math.Log2(1+res)))
	return int(max(1, steps)+max(0, bisect)) + 1
}

// describeAuto describes a search step and the warm-up and run of a
// workload that stop by themselves; ok is false for the others.
func describeAuto(tb *plan.Testbed, s Step) (string, bool) {
	w := tb.Workload(s.Workload)
	if w == nil {
		return "", false
	}
	switch {
	case s.Kind == StepSearch && w.Search != nil:
		return fmt.Sprintf("%s: capacity search from %.4g to %.4g req/s at %s, open loop, probes of %s (about %d), %d agents on %s; each probe journaled as a probe entry",
			w.Name, w.Search.From, w.Search.To, w.Search.SLO, short(w.Search.Probe), expectedProbes(w.Search), s.Agents, joinHosts(s.Hosts)), true
	case s.Kind == StepWarmup && w.Warmup != nil && w.Warmup.Auto:
		return fmt.Sprintf("%s: %d users until req/s and p99 per second are steady, at most %s, %d agents on %s",
			w.Name, s.Users, short(w.Warmup.Max), s.Agents, joinHosts(s.Hosts)), true
	case s.Kind == StepRun && w.AutoDuration != nil:
		return fmt.Sprintf("%s: %d users until req/s is known within %s (batch means), at most %s, %d agents on %s",
			w.Name, s.Users, percent(w.AutoDuration.Precision), short(w.AutoDuration.Max), s.Agents, joinHosts(s.Hosts)), true
	}
	return "", false
}

func joinHosts(hs []string) string { return strings.Join(hs, ", ") }

func percent(x float64) string { return strconv.FormatFloat(x*100, 'g', 4, 64) + "%" }
