package schedule

import (
	"slices"

	"benchbed/plan"
)

// Reloads reports whether service s's servers are reloaded in place rather
// than restarted (its restart-like steps are StepReload): a server that
// benchbed starts directly (manager "direct", no restart command of the
// testbed's own) re-executes itself on SIGUSR1 with its listen sockets
// kept (Swift's seamless reload), reading its conf, swift.conf and rings
// anew, with no stop to wait out and no moment without a listener. The
// sweep reloads such a server only when one of those files changed since
// it started (or last reloaded), starts it when it is not running, and
// restarts it when the process under its pid file is not the one benchbed
// would start. The other managers restart.
func Reloads(s *plan.Service) bool {
	return s.Manager == plan.ManagerDirect && s.Restart == ""
}

// restartKind is the kind of service s's restart-like steps.
func restartKind(s *plan.Service) Kind {
	if Reloads(s) {
		return StepReload
	}
	return StepRestart
}

// restartSteps orders a cell's restart and reload steps: the restarts
// first, then the reloads (each kind runs once, for all its steps), and
// for a kind that tb's services have and that has nothing to do in the
// cell, one Unchanged step (it still starts a server that is not running).
// tb has services (CellSteps calls configSteps only then).
func restartSteps(tb *plan.Testbed, steps []Step) []Step {
	var out []Step
	for _, kind := range []Kind{StepRestart, StepReload} {
		has := slices.ContainsFunc(tb.Services, func(s *plan.Service) bool { return restartKind(s) == kind })
		if !has {
			continue
		}
		var of []Step
		for _, st := range steps {
			if st.Kind == kind {
				of = append(of, st)
			}
		}
		out = append(out, orUnchanged(of, kind)...)
	}
	return out
}

// ConfsAhead reports whether a cell of kinds (Kinds), those in skip having
// nothing to do, pushes its confs while its rings switch: when it has both
// a ring-ports and a push-conf step to run (they write different files,
// and the servers read neither before the restart or reload step).
func ConfsAhead(kinds []Kind, skip map[Kind]bool) bool {
	for _, k := range []Kind{StepRingPorts, StepPushConf} {
		if !slices.Contains(kinds, k) || skip[k] {
			return false
		}
	}
	return true
}
