package sweep

import (
	"context"
	"slices"

	"benchbed/plan/schedule"
)

// aheadConfs pushes the cell's confs in the background as the cell
// begins, beside its ring-ports step when it switches rings (the two
// write different files: the services' confs, the rings), for its
// push-conf step to take; the servers read neither until the restart or
// reload step. Without a ring switch to overlap, the push-conf step
// pushes them itself.
func (ex *cellRun) aheadConfs(ctx context.Context, kinds []string) {
	if !confsAhead(kinds, ex.skip) {
		return
	}
	ex.lab.changing()
	ex.ahead.confs = startAhead(func() (struct{}, error) { return struct{}{}, ex.s.pushConfs(ctx, ex.r, ex.rs) })
}

// pushConfStep is the push-conf step's work: what aheadConfs started, or
// the push itself.
func (ex *cellRun) pushConfStep(ctx context.Context) error {
	ex.lab.changing()
	if ex.ahead.confs != nil {
		_, err := ex.ahead.confs.take()
		return err
	}
	return ex.s.pushConfs(ctx, ex.r, ex.rs)
}

// confsAhead reports whether a cell of kinds, those in skip having
// nothing to do, pushes its confs ahead: when it has both a ring-ports
// and a push-conf step to run.
func confsAhead(kinds []string, skip map[string]bool) bool {
	for _, k := range []string{schedule.StepRingPorts, schedule.StepPushConf} {
		if !slices.Contains(kinds, k) || skip[k] {
			return false
		}
	}
	return true
}
