package orchestrate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"time"

	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/remote"
	"benchbed/results/rundir"
)

// restoreLab puts back the originals of backup (confs, rings, builders),
// checks their checksums, restarts every Swift server of the service hosts
// (memcached is left) with the declared managers, and waits for them to
// answer on the ports of base (the first variant's rendering, which setup
// installs). A host whose files cannot be put back (unreachable, or a
// checksum that differs) keeps its backups and is named in the error; the
// other hosts are still restored, restarted and checked.
// It also returns the hosts whose files are not back (they keep their
// backups, and should keep their sweep locks). With
// settled (the sweep knows every server runs the files now on its host),
// only the servers whose confs or rings the restore changed are restarted,
// and any that is not running started; otherwise every server restarts.
func restoreLab(ctx context.Context, tb *plan.Testbed, p *remote.Pool, base *render.Rendering, backup rundir.Backup, log io.Writer, settled bool) (notBack []string, err error) {
	if len(backup) == 0 {
		return nil, nil
	}
	byHost := restoreFilesByHost(ctx, p, backup)
	var errs []error
	for _, h := range slices.Sorted(maps.Keys(byHost)) {
		if err := byHost[h].err; err != nil {
			errs = append(errs, err)
			notBack = append(notBack, h)
		}
	}
	var back []string // the service hosts whose originals are back
	for _, h := range names(serviceHosts(tb)) {
		if byHost[h].err == nil {
			back = append(back, h)
		}
	}
	rep := newReport(names(tb.Hosts))
	sum := p.FanOut(ctx, back, func(ctx context.Context, host string) error {
		ds, _ := hostDaemons(tb, base, tb.Host(host))
		if settled {
			return startServices(ctx, p, host, ds, restoredServices(tb, tb.Host(host), byHost[host].changed), false, rep)
		}
		return startServices(ctx, p, host, ds, nil, true, rep)
	})
	if err := sum.Err(); err != nil {
		errs = append(errs, fmt.Errorf("restarting after the restore: %w", err))
	}
	back = slices.DeleteFunc(back, func(h string) bool { return slices.Contains(sum.Failed(), h) })
	if err := waitAllHealthy(ctx, tb, p, base, back, 120*time.Second); err != nil {
		errs = append(errs, fmt.Errorf("the original files are back but the servers are not healthy: %w", err))
	}
	if err := errors.Join(errs...); err != nil {
		return notBack, err
	}
	if log != nil {
		fmt.Fprintln(log, "restore: originals back (checksums match), servers restarted and healthy")
	}
	return nil, nil
}

// waitAllHealthy waits until every server of rendering r on hosts answers;
// a server found dead meanwhile fails its host at once (waitHostHealthy).
func waitAllHealthy(ctx context.Context, tb *plan.Testbed, p *remote.Pool, r *render.Rendering, hosts []string, timeout time.Duration) error {
	hc := &http.Client{Timeout: 5 * time.Second}
	return p.FanOut(ctx, hosts, func(ctx context.Context, host string) error {
		return waitHostHealthy(ctx, p, hc, host, tb, r, timeout)
	}).Err()
}

// RestoreRun is `benchbed restore RUN`: it takes the run's locks back
// (another sweep's lock refuses the restore before anything changes),
// restores what the run's sweep backed up (when it has not been restored
// yet), and releases the locks.
func RestoreRun(ctx context.Context, tb *plan.Testbed, p *remote.Pool, run *rundir.Run, log io.Writer) error {
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
	_ = j.Add(rundir.Entry{Step: "restore", Status: rundir.StepStarted, Detail: "benchbed restore"})
	err = restoreLocked(ctx, tb, p, run, base, backup, log, j)
	if err == nil {
		err = restoreGenericRun(ctx, tb, p, run, log)
	}
	e := rundir.Entry{Step: "restore", Status: rundir.StepOK}
	if err != nil {
		e.Status, e.Detail = rundir.StepFailed, tb.Mask(err.Error())
	}
	_ = j.Add(e)
	return err
}

// restoreLocked restores backup under the run's locks, then releases them;
// a host still lost keeps its lock and backups.
func restoreLocked(ctx context.Context, tb *plan.Testbed, p *remote.Pool, run *rundir.Run, base *render.Rendering, backup rundir.Backup, log io.Writer, j *rundir.Journal) error {
	if err := checkNotRunning(ctx, p, p.Hosts(), run.ID); err != nil {
		return fmt.Errorf("nothing restored: %w", err)
	}
	stale, err := lock(ctx, p, p.Hosts(), newHolder(run.ID), false)
	if err != nil {
		return fmt.Errorf("nothing restored: %w", err)
	}
	for _, st := range stale {
		if log != nil {
			fmt.Fprintf(log, "restore: %s\n", st)
		}
		_ = j.Add(rundir.Entry{Step: "lock", Host: st.Host, Status: rundir.StepOK, Detail: st.String()})
	}
	var errs []error
	var notBack []string
	if backup == nil {
		if log != nil {
			fmt.Fprintf(log, "restore: %s has no %s: the sweep changed no file; releasing its locks\n", run.Dir, rundir.BackupFile)
		}
	} else {
		var err error
		notBack, err = restoreLab(ctx, tb, p, base, backup, log, false)
		errs = append(errs, err)
	}
	// A host whose files are not back keeps the lock: no sweep starts on a
	// half-restored lab.
	hosts := slices.DeleteFunc(p.Hosts(), func(h string) bool { return slices.Contains(notBack, h) })
	errs = append(errs, unlock(ctx, p, hosts, run.ID))
	return errors.Join(errs...)
}

func firstVariant(tb *plan.Testbed) *plan.Variant {
	if len(tb.Variants) == 0 {
		return nil
	}
	return tb.Variants[0]
}
