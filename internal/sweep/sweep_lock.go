package sweep

import (
	"benchbed/internal/restore"
	"context"
	"slices"
	"strconv"

	"benchbed/results/rundir"
)

// lock takes the sweep lock on every host; its undo, unlock, releases them.
func (s *Sweeper) lock(ctx context.Context) error {
	stale, err := restore.Lock(ctx, s.p, s.p.Hosts(), restore.NewHolder(s.run.ID), s.opts.BreakLock)
	for _, st := range stale {
		s.logf("%s", st)
		s.steps.Add(rundir.Entry{Step: "lock", Host: st.Host, Status: rundir.StepOK, Detail: st.String(),
			Data: map[string]string{"stale_run": st.Holder.Run, "stale_pid": strconv.Itoa(st.Holder.PID)}})
	}
	return err
}

// unlock releases the sweep's locks, but on a host whose originals could
// not be put back: no other sweep starts on it before `benchbed restore`.
func (s *Sweeper) unlock(ctx context.Context) error {
	hosts := slices.DeleteFunc(s.p.Hosts(), func(h string) bool { return slices.Contains(s.backup.notRestored, h) })
	return restore.Unlock(ctx, s.p, hosts, s.run.ID)
}
