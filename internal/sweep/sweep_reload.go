package sweep

import (
	"context"

	"benchbed/internal/cluster"
	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/plan/schedule"
)

// reload brings the servers that reload in place (schedule.Reloads) to
// what the ring and conf steps wrote: each of a changed service is
// reloaded when a file it reads changed since it started, and any daemon
// that is not running is started; once it succeeds the hosts hold the
// cell's variant.
func (ex *cellRun) reload(ctx context.Context) error {
	s := ex.s
	ex.lab.restarting()
	err := s.reloadServices(ctx, ex.r, ex.rs)
	ex.lab.restarted(ex.c.Variant, err, s.opts.Resume != "")
	return s.keepLogsOnError(ctx, ex.dir, err)
}

// reloadServices runs cluster.ReloadServices on every service host, all at
// once, for the changed services that reload in place.
func (s *Sweeper) reloadServices(ctx context.Context, r *render.Rendering, rs *restarts) error {
	rep := cluster.NewSummary(cluster.Names(s.tb.Hosts))
	err := s.p.FanOut(ctx, cluster.Names(cluster.ServiceHosts(s.tb)), func(ctx context.Context, host string) error {
		ds, _ := cluster.HostDaemons(s.tb, r, s.tb.Host(host))
		return cluster.ReloadServices(ctx, s.p, host, ds, rs.ofKind(s.tb, host, true), false, rep)
	}).Err()
	s.logChanges(rep)
	return err
}

// ofKind is of(host) with only the services that reload in place (reload)
// or only the others: what the reload step, or the restart step, acts on.
func (r *restarts) ofKind(tb *plan.Testbed, host string, reload bool) map[string]bool {
	out := map[string]bool{}
	for name := range r.of(host) {
		if svc := tb.Service(name); svc != nil && schedule.Reloads(svc) == reload {
			out[name] = true
		}
	}
	return out
}
