package setup

import (
	"context"
	"sync"
	"time"

	"benchbed/internal/cluster"
	"benchbed/internal/step"
	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/remote"
)

// swiftless reports whether tb runs no Swift: no Swift service and no
// ring, generic services only (seed004-lab).
func swiftless(tb *plan.Testbed) bool { return len(tb.Services) == 0 && len(tb.Rings) == 0 }

// setupGeneric is Setup for a testbed of generic services only: on every
// host that runs one, the packages it lacks, the confs of variant base
// pushed, each service started (restarted when its conf changed), then
// every health check passed. Run again it changes nothing.
func setupGeneric(ctx context.Context, tb *plan.Testbed, p *remote.Pool, r *render.Rendering, base *plan.Variant,
	opts Options, logf func(string, ...any)) (*cluster.Report, error) {
	hosts := cluster.Names(cluster.GenericHosts(tb))
	rep := cluster.NewReport(cluster.Names(tb.Hosts))
	if len(hosts) == 0 {
		logf("nothing to set up: %s has no Swift service, no ring and no generic service", tb.File)
		return rep, nil
	}
	changed := map[string]map[string]bool{}
	fan := func(fn func(context.Context, string) error) error { return p.FanOut(ctx, hosts, fn).Err() }
	list := []step.Step{
		{Name: "packages", Run: func(ctx context.Context) error {
			return fan(func(ctx context.Context, host string) error {
				h := tb.Host(host)
				pkgs := hostPackages(tb, h, nil, "")
				if len(pkgs) == 0 {
					return nil
				}
				pm, err := packager(ctx, p, host)
				if err != nil {
					return err
				}
				return installPackages(ctx, p, host, pm, pkgs, rep)
			})
		}},
		{Name: "generic services' confs", Run: func(ctx context.Context) error {
			var mu sync.Mutex
			return fan(func(ctx context.Context, host string) error {
				ch, err := cluster.PushGenericConfs(ctx, p, r.Generic, host, rep)
				mu.Lock()
				changed[host] = ch
				mu.Unlock()
				return err
			})
		}},
		{Name: "generic services", Run: func(ctx context.Context) error {
			return fan(func(ctx context.Context, host string) error {
				for _, g := range cluster.HostGenerics(tb, tb.Host(host)) {
					if _, err := cluster.StartGenericService(ctx, p, host, g, base, changed[host][g.Name], rep); err != nil {
						return err
					}
				}
				return nil
			})
		}},
		{Name: "health checks", Run: func(ctx context.Context) error {
			timeout := opts.HealthTimeout
			if timeout == 0 {
				timeout = 60 * time.Second
			}
			return cluster.GenericHealthy(ctx, tb, p, hosts, timeout)
		}},
	}
	return runSteps(ctx, tb, list, rep, logf)
}
