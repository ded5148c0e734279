package restore

import (
	"context"
	"strconv"

	"benchbed/internal/cluster"
	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/plan/schedule"
	"benchbed/remote"
)

// ReloadServices is cluster.StartServices for the sweep's reload step and the
// restore: host's daemons that are not running are started, and those of
// the changed services (every Swift server with all) are brought to their
// files: a server that reloads in place (cluster.Daemon.Reload) is reloaded when
// a file it reads changed since it started (cluster.Daemon.ReloadScript),
// and left running when none did; any other daemon is restarted. One round
// trip first finds the daemons with nothing to do (cluster.CheckDaemons:
// running, and current where they are to be brought to their files); the
// others get one each, side by side, at most StartParallel at once. Changes
// are reported, and the first failure returned, in the daemons' order.
func ReloadServices(ctx context.Context, p cluster.Runner, host string, ds []cluster.Daemon, changed map[string]bool, all bool, rep *cluster.Summary) error {
	acts := make([]string, len(ds))
	want := make([]bool, len(ds))
	for i, d := range ds {
		want[i] = changed[d.Service()] || (all && d.Name != "memcached")
	}
	var keys []string
	for i, found := range cluster.CheckDaemons(ctx, p, host, ds, want) {
		switch found {
		case cluster.CheckCurrent:
			acts[i] = "current"
		case cluster.CheckRunning:
		default:
			keys = append(keys, strconv.Itoa(i))
		}
	}
	sum := remote.FanOut(ctx, cluster.StartParallel, keys, func(ctx context.Context, key string) error {
		i, _ := strconv.Atoi(key)
		var err error
		if want[i] && ds[i].Reload {
			acts[i], err = cluster.ReloadDaemon(ctx, p, host, ds[i])
		} else {
			acts[i], err = cluster.StartDaemon(ctx, p, host, ds[i], want[i])
		}
		return err
	})
	cluster.ReportActs(rep, host, ds, acts)
	for _, r := range sum.Results {
		if r.Err != nil {
			return r.Err
		}
	}
	return nil
}

// BringServices brings every service host of tb to rendering r at once:
// with reload, ReloadServices for the services that reload in place
// (schedule.Reloads), else cluster.StartServices for the others; changed(host)
// names the host's services whose files changed, of either kind.
func BringServices(ctx context.Context, p *remote.Pool, tb *plan.Testbed, r *render.Rendering, changed func(host string) map[string]bool, reload bool, rep *cluster.Summary) error {
	return p.FanOut(ctx, cluster.Names(cluster.ServiceHosts(tb)), func(ctx context.Context, host string) error {
		ds, _ := cluster.HostDaemons(tb, r, tb.Host(host))
		mine := map[string]bool{}
		for name := range changed(host) {
			if svc := tb.Service(name); svc != nil && schedule.Reloads(svc) == reload {
				mine[name] = true
			}
		}
		if reload {
			return ReloadServices(ctx, p, host, ds, mine, false, rep)
		}
		return cluster.StartServices(ctx, p, host, ds, mine, false, rep)
	}).Err()
}
