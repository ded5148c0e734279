package orchestrate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"benchbed/plan"
	"benchbed/remote"
	"benchbed/results"
)

// RestoreLab puts back the originals of backup (confs, rings, builders),
// checks their checksums, restarts every Swift server of the service hosts
// (memcached is left) with the declared managers, and waits for them to
// answer on the ports of base (the first variant's rendering, which setup
// installs).
func RestoreLab(ctx context.Context, tb *plan.Testbed, p *remote.Pool, base *plan.Rendering, backup Backup, log io.Writer) error {
	if len(backup) == 0 {
		return nil
	}
	if err := RestoreFiles(ctx, p, backup); err != nil {
		return err
	}
	rep := NewReport(names(tb.Hosts))
	err := p.FanOut(ctx, names(ServiceHosts(tb)), func(ctx context.Context, host string) error {
		ds, _ := HostDaemons(tb, base, tb.Host(host))
		return StartServices(ctx, p, host, ds, nil, true, rep)
	}).Err()
	if err != nil {
		return fmt.Errorf("restarting after the restore: %w", err)
	}
	if err := waitAllHealthy(ctx, tb, p, base, 120*time.Second); err != nil {
		return fmt.Errorf("the original files are back but the servers are not healthy: %w", err)
	}
	if log != nil {
		fmt.Fprintln(log, "restore: originals back (checksums match), servers restarted and healthy")
	}
	return nil
}

// waitAllHealthy waits until every server of rendering r answers.
func waitAllHealthy(ctx context.Context, tb *plan.Testbed, p *remote.Pool, r *plan.Rendering, timeout time.Duration) error {
	hc := &http.Client{Timeout: 5 * time.Second}
	return p.FanOut(ctx, names(ServiceHosts(tb)), func(ctx context.Context, host string) error {
		_, ls := HostDaemons(tb, r, tb.Host(host))
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		for _, l := range ls {
			if err := WaitHealthy(ctx, hc, host, l); err != nil {
				return err
			}
		}
		return nil
	}).Err()
}

// RestoreRun is `benchbed restore RUN`: it restores what the run's sweep
// backed up (when it has not been restored yet), and releases its locks.
func RestoreRun(ctx context.Context, tb *plan.Testbed, p *remote.Pool, run *results.Run, log io.Writer) error {
	backup, err := ReadBackup(run)
	if err != nil {
		return err
	}
	j, err := run.OpenJournal()
	if err != nil {
		return err
	}
	defer j.Close()
	_ = j.Add(results.Entry{Step: "restore", Status: results.StepStarted, Detail: "benchbed restore"})
	var errs []error
	if backup == nil {
		errs = append(errs, fmt.Errorf("%s has no %s: the sweep changed nothing", run.Dir, BackupName))
	} else {
		base, rerr := tb.Render(firstVariant(tb), plan.RenderOptions{})
		if rerr != nil {
			return rerr
		}
		errs = append(errs, RestoreLab(ctx, tb, p, base, backup, log))
	}
	errs = append(errs, Unlock(ctx, p, p.Hosts(), run.ID))
	err = errors.Join(errs...)
	e := results.Entry{Step: "restore", Status: results.StepOK}
	if err != nil {
		e.Status, e.Detail = results.StepFailed, tb.Mask(err.Error())
	}
	_ = j.Add(e)
	return err
}

func firstVariant(tb *plan.Testbed) *plan.Variant {
	if len(tb.Variants) == 0 {
		return nil
	}
	return tb.Variants[0]
}
