package restore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"benchbed/internal/step"
	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/plan/schedule"
	"benchbed/remote"
	"benchbed/results/rundir"
)

// DefaultHealthTimeout is how long a sweep's cell, or a restore, waits for
// every server to answer unless told otherwise.
const DefaultHealthTimeout = 120 * time.Second

// Options tune Run.
type Options struct {
	Log           io.Writer     // progress lines (nil = none)
	HealthTimeout time.Duration // for every server to answer after the restore (0 = DefaultHealthTimeout)
}

// Run is `benchbed restore RUN`: it takes the run's locks back
// (another sweep's lock refuses the restore before anything changes),
// restores what the run's sweep backed up (when it has not been restored
// yet) and the generic services as they were, and releases the locks; a
// host still lost keeps its lock and backups. The journal records it as
// one step, "restore", and each stale lock taken over.
func Run(ctx context.Context, tb *plan.Testbed, p *remote.Pool, run *rundir.Run, opts Options) error {
	if opts.HealthTimeout <= 0 {
		opts.HealthTimeout = DefaultHealthTimeout
	}
	backup, err := run.ReadBackup()
	if err != nil {
		return err
	}
	base, err := render.Render(tb, firstVariant(tb), render.Options{})
	if err != nil {
		return err
	}
	j, err := run.OpenJournal()
	if err != nil {
		return err
	}
	defer j.Close()
	rs := &restore{tb: tb, p: p, run: run, base: base, backup: backup, opts: opts, journal: &step.Runner{Journal: j, Mask: tb.Mask}}
	return rs.journal.Run(ctx, []step.Step{{Name: "restore", Detail: "benchbed restore", Run: rs.steps}})
}

// restore is the state of one Run, shared by its steps.
type restore struct {
	tb      *plan.Testbed
	p       *remote.Pool
	run     *rundir.Run
	base    *render.Rendering // the first variant's: what the servers restart with
	backup  rundir.Backup     // nil: the sweep changed no file
	opts    Options
	journal *step.Runner // the run's journal
	locked  bool         // the lock step took every host's lock
	notBack []string     // hosts whose originals are not back: they keep the lock
	// faultsErr is what the faults step could not undo or found left: the
	// files are restored all the same, and the restore fails with it.
	faultsErr error
}

// steps runs the restore's steps on a runner of their own (journaled as
// the one restore step): no live sweep of the run, the locks (released by
// the undo, but on the hosts not restored), the faults the run left, the
// files, the generic services.
func (rs *restore) steps(ctx context.Context) error {
	r := &step.Runner{}
	err := r.Run(ctx, []step.Step{
		{Name: "check-not-running", Run: rs.checkNotRunning},
		{Name: string(schedule.StepLock), Run: rs.lock, Undo: rs.unlock},
		{Name: "faults", Run: rs.faults},
		{Name: "files", Run: rs.files},
		{Name: "generic-services", Run: rs.generic},
	})
	return errors.Join(err, rs.faultsErr, r.Unwind(ctx))
}

func (rs *restore) checkNotRunning(ctx context.Context) error {
	if err := checkNotRunning(ctx, rs.p, rs.p.Hosts(), rs.run.ID); err != nil {
		return fmt.Errorf("nothing restored: %w", err)
	}
	return nil
}

// lock takes the run's locks back; a stale lock taken over is said and
// journaled.
func (rs *restore) lock(ctx context.Context) error {
	stale, err := Lock(ctx, rs.p, rs.p.Hosts(), NewHolder(rs.run.ID), false)
	if err != nil {
		return fmt.Errorf("nothing restored: %w", err)
	}
	rs.locked = true
	for _, st := range stale {
		rs.logf("%s", st)
		rs.journal.Add(rundir.Entry{Step: "lock", Host: st.Host, Status: rundir.StepOK, Detail: st.String()})
	}
	return nil
}

// unlock releases the locks the lock step took, but on a host whose files
// are not back: no sweep starts on a half-restored lab. A refused lock
// leaves the locks as they were (those of the run stay with it).
func (rs *restore) unlock(ctx context.Context) error {
	if !rs.locked {
		return nil
	}
	hosts := slices.DeleteFunc(rs.p.Hosts(), func(h string) bool { return slices.Contains(rs.notBack, h) })
	return Unlock(ctx, rs.p, hosts, rs.run.ID)
}

// files puts the originals back (RestoreLab) and restarts the servers.
func (rs *restore) files(ctx context.Context) error {
	if rs.backup == nil {
		rs.logf("%s has no %s: the sweep changed no file; releasing its locks", rs.run.Dir, rundir.BackupFile)
		return nil
	}
	var err error
	rs.notBack, err = RestoreLab(ctx, rs.tb, rs.p, rs.base, rs.backup, rs.opts.Log, false, rs.opts.HealthTimeout)
	return err
}

// generic stops and starts the generic services as they were before the
// sweep touched them.
func (rs *restore) generic(ctx context.Context) error {
	return restoreGenericRun(ctx, rs.tb, rs.p, rs.run, rs.opts.Log, rs.opts.HealthTimeout)
}

func (rs *restore) logf(format string, a ...any) {
	if rs.opts.Log != nil {
		fmt.Fprintf(rs.opts.Log, "restore: "+format+"\n", a...)
	}
}
