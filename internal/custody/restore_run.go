package custody

import (
	"context"
	"fmt"
	"io"
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

// RestoreOptions tune Restore.
type RestoreOptions struct {
	Log           io.Writer     // progress lines (nil = none)
	HealthTimeout time.Duration // for every server to answer after the restore (0 = DefaultHealthTimeout)
}

// Restore is `benchbed restore RUN`: it takes the run's locks back
// (another sweep's lock refuses the restore before anything changes),
// restores what the run's sweep backed up (when it has not been restored
// yet) and the generic services as they were, and releases the locks; a
// host still lost keeps its lock and backups. The journal records it as
// one step, "restore", and each stale lock taken over.
func Restore(ctx context.Context, tb *plan.Testbed, p *remote.Pool, run *rundir.Run, opts RestoreOptions) error {
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
	r := &step.Runner{Journal: j, Mask: tb.Mask}
	rs := &restore{tb: tb, p: p, run: run, base: base, backup: backup, opts: opts}
	rs.locks = &Locks{Pool: p, Hosts: p.Hosts(), Run: run.ID, Journal: r, Log: rs.logf}
	return r.RunAsOne(ctx, "restore", "benchbed restore", rs.steps())
}

// restore is the state of one Restore, shared by its steps.
type restore struct {
	tb     *plan.Testbed
	p      *remote.Pool
	run    *rundir.Run
	base   *render.Rendering // the first variant's: what the servers restart with
	backup rundir.Backup     // nil: the sweep changed no file
	opts   RestoreOptions
	locks  *Locks // the run's locks, released by the lock step's undo but on the hosts not restored
}

// steps are the restore's steps, journaled as the one restore step: no
// live sweep of the run, the locks (released by the undo, but on the
// hosts not restored), the faults the run left (what is left fails the
// restore once the files are back), the files, the generic services.
func (rs *restore) steps() []step.Step {
	return []step.Step{
		{Name: "check-not-running", Run: rs.checkNotRunning},
		{Name: string(schedule.StepLock), Run: rs.lock, Undo: rs.locks.Release},
		{Name: "faults", Run: rs.faults, Later: true},
		{Name: "files", Run: rs.files},
		{Name: "generic-services", Run: rs.generic},
	}
}

func (rs *restore) checkNotRunning(ctx context.Context) error {
	if err := checkNotRunning(ctx, rs.p, rs.p.Hosts(), rs.run.ID); err != nil {
		return fmt.Errorf("nothing restored: %w", err)
	}
	return nil
}

// lock takes the run's locks back (Locks.Take).
func (rs *restore) lock(ctx context.Context) error {
	if err := rs.locks.Take(ctx); err != nil {
		return fmt.Errorf("nothing restored: %w", err)
	}
	return nil
}

// files puts the originals back (RestoreLab) and restarts the servers; a
// host whose originals are not back keeps its lock.
func (rs *restore) files(ctx context.Context) error {
	if rs.backup == nil {
		rs.logf("%s has no %s: the sweep changed no file; releasing its locks", rs.run.Dir, rundir.BackupFile)
		return nil
	}
	notBack, err := RestoreLab(ctx, rs.tb, rs.p, rs.base, rs.backup, rs.opts.Log, false, rs.opts.HealthTimeout)
	rs.locks.Keep(notBack...)
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
