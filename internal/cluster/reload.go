package cluster

import (
	"context"
	"net/http"
	"time"

	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/plan/schedule"
	"benchbed/remote"
)

// ReloadServices is StartServices for the sweep's reload step and the
// restore: host's daemons that are not running are started, and those of
// the changed services (every Swift server with all) are brought to their
// files: a server that reloads in place (Daemon.Reload) is reloaded when
// a file it reads changed since it started (Daemon.ReloadScript),
// and left running when none did; any other daemon is restarted. One round
// trip first finds the daemons with nothing to do (CheckDaemons:
// running, and current where they are to be brought to their files); the
// others get one each, side by side, at most StartParallel at once. Changes
// are reported, and the first failure returned, in the daemons' order.
func ReloadServices(ctx context.Context, p Runner, host string, ds []Daemon, changed map[string]bool, all bool, rep *Report) error {
	acts := make([]string, len(ds))
	want := make([]bool, len(ds))
	for i, d := range ds {
		want[i] = bringWanted(d, changed, all)
	}
	var idx []int
	for i, found := range CheckDaemons(ctx, p, host, ds, want) {
		switch found {
		case CheckCurrent:
			acts[i] = "current"
		case CheckRunning:
		default:
			idx = append(idx, i)
		}
	}
	return actOn(ctx, host, ds, idx, acts, rep, func(ctx context.Context, i int) (string, error) {
		if want[i] && ds[i].Reload {
			return ReloadDaemon(ctx, p, host, ds[i])
		}
		return StartDaemon(ctx, p, host, ds[i], want[i])
	})
}

// BringServices brings every service host of tb to rendering r at once:
// with reload, ReloadServices for the services that reload in place
// (schedule.Reloads), else StartServices for the others; changed(host)
// names the host's services whose files changed, of either kind.
func BringServices(ctx context.Context, p *remote.Pool, tb *plan.Testbed, r *render.Rendering, changed func(host string) map[string]bool, reload bool, rep *Report) error {
	return p.FanOut(ctx, Names(ServiceHosts(tb)), func(ctx context.Context, host string) error {
		ds, _ := HostDaemons(tb, r, tb.Host(host))
		mine := map[string]bool{}
		for name := range changed(host) {
			if svc := tb.Service(name); svc != nil && schedule.Reloads(svc) == reload {
				mine[name] = true
			}
		}
		if reload {
			return ReloadServices(ctx, p, host, ds, mine, false, rep)
		}
		return StartServices(ctx, p, host, ds, mine, false, rep)
	}).Err()
}

// WaitAllHealthy waits until every server of rendering r on hosts answers;
// a server found dead meanwhile fails its host at once (waitHostHealthy).
func WaitAllHealthy(ctx context.Context, tb *plan.Testbed, p *remote.Pool, r *render.Rendering, hosts []string, timeout time.Duration) error {
	hc := &http.Client{Timeout: 5 * time.Second}
	return p.FanOut(ctx, hosts, func(ctx context.Context, host string) error {
		return WaitHostHealthy(ctx, p, hc, host, tb, r, timeout)
	}).Err()
}
