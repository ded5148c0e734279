package custody

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"benchbed/internal/cluster"
	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/remote"
	"benchbed/results/rundir"
)

// RestoreLab puts back the originals of backup (confs, rings, builders),
// checks their checksums, restarts every Swift server of the service hosts
// (memcached is left) with the declared managers (a server that reloads
// in place is reloaded, and only when a file it reads changed since it
// started: cluster.ReloadServices), and waits for them to
// answer on the ports of base (the first variant's rendering, which setup
// installs). A host whose files cannot be put back (unreachable, or a
// checksum that differs) keeps its backups and is named in the error; the
// other hosts are still restored, restarted and checked.
// It also returns the hosts whose files are not back (they keep their
// backups, and should keep their sweep locks). With
// settled (the sweep knows every server runs the files now on its host),
// only the servers whose confs or rings the restore changed are restarted,
// and any that is not running started; otherwise every server restarts.
func RestoreLab(ctx context.Context, tb *plan.Testbed, p *remote.Pool, base *render.Rendering, backup rundir.Backup, log io.Writer, settled bool, timeout time.Duration) (notBack []string, err error) {
	if len(backup) == 0 {
		return nil, nil
	}
	byHost := RestoreFilesByHost(ctx, p, backup)
	var errs []error
	for _, h := range slices.Sorted(maps.Keys(byHost)) {
		if err := byHost[h].Err; err != nil {
			errs = append(errs, err)
			notBack = append(notBack, h)
		}
	}
	var back []string // the service hosts whose originals are back
	for _, h := range cluster.Names(cluster.ServiceHosts(tb)) {
		if byHost[h].Err == nil {
			back = append(back, h)
		}
	}
	rep := cluster.NewReport(cluster.Names(tb.Hosts))
	sum := p.FanOut(ctx, back, func(ctx context.Context, host string) error {
		ds, _ := cluster.HostDaemons(tb, base, tb.Host(host))
		if settled {
			return cluster.ReloadServices(ctx, p, host, ds, cluster.RestoredServices(tb, tb.Host(host), byHost[host].Changed), false, rep)
		}
		return cluster.ReloadServices(ctx, p, host, ds, nil, true, rep)
	})
	if err := sum.Err(); err != nil {
		errs = append(errs, fmt.Errorf("restarting after the restore: %w", err))
	}
	back = slices.DeleteFunc(back, func(h string) bool { return slices.Contains(sum.Failed(), h) })
	if err := cluster.WaitAllHealthy(ctx, tb, p, base, back, timeout); err != nil {
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

func firstVariant(tb *plan.Testbed) *plan.Variant {
	if len(tb.Variants) == 0 {
		return nil
	}
	return tb.Variants[0]
}
