package setup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"benchbed/internal/cluster"
	"benchbed/internal/cluster/rings"
	"benchbed/internal/step"
	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/remote"
	"benchbed/templates/secrets"
)

// Options tune Setup.
type Options struct {
	Log           io.Writer     // progress lines (nil = none)
	HealthTimeout time.Duration // per server (0 = 60 s)
}

// Run turns the testbed's hosts into a healthy cluster with the baseline
// variant (the first) and returns what it changed per host. It installs
// the packages a host lacks (hostPackages), refusing first a host whose
// swift.conf has a policy the testbed would drop or retype (PolicyConflicts),
// checks every EC policy's backend on its hosts (ECBackends), prepares the disks, pushes swift.conf (hash prefix
// and suffix generated once, then kept) and the confs, builds the rings on
// the builder host and copies them everywhere, starts memcached and the
// servers (restarting those whose confs changed), waits for every server's
// /healthcheck and does an auth, PUT, GET and DELETE through every proxy.
// Every error names the host where it happened. A testbed without Swift
// (generic services only) is set up by setupGeneric.
func Run(ctx context.Context, tb *plan.Testbed, p *remote.Pool, opts Options) (*cluster.Report, error) {
	logf := func(format string, a ...any) {
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, "setup: "+format+"\n", a...)
		}
	}
	var base *plan.Variant
	if len(tb.Variants) > 0 {
		base = tb.Variants[0]
	}
	r, err := render.Render(tb, base, render.Options{})
	if err != nil {
		return nil, err
	}
	for _, w := range r.Warnings {
		logf("warning: %s", tb.Mask(w.String()))
	}
	if swiftless(tb) {
		return setupGeneric(ctx, tb, p, r, base, opts, logf)
	}
	builder, err := tb.BuilderHost()
	if err != nil {
		return nil, err
	}
	hosts := cluster.ServiceHosts(tb)
	rep := cluster.NewReport(cluster.Names(tb.Hosts))
	s := &setup{tb: tb, p: p, r: r, builder: builder, hosts: hosts, rep: rep, logf: logf}
	list := []step.Step{
		{Name: "storage policies against the hosts' swift.conf", Run: func(ctx context.Context) error { return cluster.PolicyConflicts(ctx, p, tb) }},
		{Name: "packages", Run: s.packages},
		{Name: "checking the hosts' commands", Run: s.preflight},
		{Name: "settings against each host's Swift", Run: s.options},
		{Name: "erasure-coding backends", Run: func(ctx context.Context) error { return cluster.ECBackends(ctx, p, tb) }},
		{Name: "disks and directories", Run: s.disks},
		{Name: "swift.conf and service confs", Run: s.confs},
		{Name: "rings on " + builder.Name, Run: s.rings},
		{Name: "services", Run: s.services},
		{Name: "health checks", Run: func(ctx context.Context) error { return s.health(ctx, opts.HealthTimeout) }},
		{Name: "auth, PUT, GET, DELETE through every proxy", Run: s.roundTrips},
	}
	return runSteps(ctx, tb, list, rep, logf)
}

// runSteps runs a setup's steps in order on one runner, logging each as it
// begins; the first that fails fails the report, its error named by the
// step with the testbed's secrets masked.
func runSteps(ctx context.Context, tb *plan.Testbed, list []step.Step, rep *cluster.Report, logf func(string, ...any)) (*cluster.Report, error) {
	steps := &step.Runner{Begin: func(name string) { logf("%s", name) }}
	var se *step.Error
	if err := steps.Run(ctx, list); errors.As(err, &se) {
		rep.Fail()
		return rep, fmt.Errorf("%s: %s", se.Step, tb.Mask(se.Err.Error()))
	}
	return rep, nil
}

// setup is the state of one Setup.
type setup struct {
	tb      *plan.Testbed
	p       *remote.Pool
	r       *render.Rendering
	builder *plan.Host
	hosts   []*plan.Host
	rep     *cluster.Report
	logf    func(string, ...any)
	written map[string][]string // host -> conf paths written
}

// fanOut runs fn on every service host, at most the pool's parallelism at
// once, and joins the errors (each names its host).
func (s *setup) fanOut(ctx context.Context, fn func(context.Context, *plan.Host) error) error {
	return s.p.FanOut(ctx, cluster.Names(s.hosts), func(ctx context.Context, name string) error {
		return fn(ctx, s.tb.Host(name))
	}).Err()
}

// packages installs what each host lacks, with the package manager its
// /etc/os-release names; a host whose testbed list is empty is not asked.
func (s *setup) packages(ctx context.Context) error {
	return s.fanOut(ctx, func(ctx context.Context, h *plan.Host) error {
		if h.PackagesSet && len(h.Packages) == 0 {
			return nil
		}
		pm, err := packager(ctx, s.p, h.Name)
		if err != nil {
			return err
		}
		return installPackages(ctx, s.p, h.Name, pm, hostPackages(s.tb, h, s.builder, pm), s.rep)
	})
}

// options checks the settings against the Swift each host runs (its own
// sample confs), now that its packages are in, before any conf is written.
func (s *setup) options(ctx context.Context) error {
	cats, err := cluster.CheckOptions(ctx, s.p, s.tb)
	for _, hc := range cats {
		s.logf("%s: Swift %s, settings checked against %s", strings.Join(hc.Hosts, ", "), hc.Version, hc.From)
	}
	return err
}

// preflight checks that every host has the commands its services need.
func (s *setup) preflight(ctx context.Context) error {
	return s.fanOut(ctx, func(ctx context.Context, h *plan.Host) error {
		need := []string{"python3", "ss", "setsid"}
		if h == s.builder {
			need = append(need, "swift-ring-builder")
		}
		ds, _ := cluster.HostDaemons(s.tb, s.r, h)
		for _, d := range ds {
			if d.Manager == plan.ManagerDirect {
				need = append(need, d.Argv[0])
			}
		}
		script := "for c in " + strings.Join(need, " ") + "; do case $c in /*) [ -f \"$c\" ] && [ -x \"$c\" ] ;; *) command -v \"$c\" >/dev/null ;; esac || echo \"$c\"; done"
		res, err := s.p.Run(remote.Quiet(ctx), h.Name, script)
		if err != nil {
			return err
		}
		if miss := strings.Fields(string(res.Stdout)); len(miss) > 0 {
			return fmt.Errorf("%s: missing %s (install Swift's Debian packages: swift swift-proxy swift-object swift-container swift-account memcached)",
				h.Name, strings.Join(miss, ", "))
		}
		return nil
	})
}

// disks prepares the device directories (or mounts) of every host.
func (s *setup) disks(ctx context.Context) error {
	return s.fanOut(ctx, func(ctx context.Context, h *plan.Host) error {
		res, err := s.p.Run(ctx, h.Name, cluster.DisksScript(s.tb, h, s.devicesRoot(h)))
		if err != nil {
			return err
		}
		for _, l := range strings.Split(strings.TrimSpace(string(res.Stdout)), "\n") {
			if l != "" {
				s.rep.Change(h.Name, "%s", l)
			}
		}
		return nil
	})
}

// devicesRoot is the devices directory of host h's storage confs.
func (s *setup) devicesRoot(h *plan.Host) string { return cluster.DevicesRootOf(s.r, h) }

// confs fixes swift.conf's hashes and pushes every host's confs.
func (s *setup) confs(ctx context.Context) error {
	have, err := cluster.ReadHashes(ctx, s.p, s.builder.Name)
	if err != nil {
		return err
	}
	var hashes cluster.Hashes
	for _, c := range s.r.Confs {
		if c.Path != render.SwiftConfPath {
			continue
		}
		if hashes == nil {
			var generated bool
			if hashes, generated, err = cluster.ChooseHashes(have, c.File, s.builder.Name); err != nil {
				return err
			}
			if generated {
				s.rep.Change(s.builder.Name, "generated swift.conf hash path prefix and suffix")
			}
			s.tb = s.tb.WithSecrets(hashes.Values()...)
		}
		hashes.Apply(c.File)
	}
	s.written = map[string][]string{}
	var mu sync.Mutex
	return s.fanOut(ctx, func(ctx context.Context, h *plan.Host) error {
		w, err := cluster.PushConfs(ctx, s.p, s.r, h.Name, s.rep)
		mu.Lock()
		s.written[h.Name] = w
		mu.Unlock()
		return err
	})
}

// rings builds the rings on the builder host and copies them everywhere.
func (s *setup) rings(ctx context.Context) error {
	if err := rings.BuildRings(ctx, s.p, s.tb, s.builder, s.r.Layout, s.rep); err != nil {
		return err
	}
	return rings.DistributeRings(ctx, s.p, s.tb, s.builder, s.rep)
}

// services starts what is not running and restarts what changed.
func (s *setup) services(ctx context.Context) error {
	return s.fanOut(ctx, func(ctx context.Context, h *plan.Host) error {
		ds, _ := cluster.HostDaemons(s.tb, s.r, h)
		changed, all := cluster.ChangedServices(s.tb, h, s.written[h.Name])
		return cluster.StartServices(ctx, s.p, h.Name, ds, changed, all, s.rep)
	})
}

// health waits for every server's /healthcheck.
func (s *setup) health(ctx context.Context, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	hc := &http.Client{Timeout: 5 * time.Second}
	return s.fanOut(ctx, func(ctx context.Context, h *plan.Host) error {
		_, ls := cluster.HostDaemons(s.tb, s.r, h)
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		for _, l := range ls {
			if err := cluster.WaitHealthy(ctx, hc, h.Name, l); err != nil {
				return s.withLog(h, l.Service, err)
			}
		}
		s.rep.Note(h.Name, "%d server port(s) healthy", len(ls))
		return nil
	})
}

// withLog adds the last lines service's daemon on h logged to err (auth
// tokens masked): its unit's journal (systemd) or its log file (direct).
func (s *setup) withLog(h *plan.Host, service string, err error) error {
	sv := s.tb.Service(service)
	if sv == nil {
		return err
	}
	d := cluster.SwiftDaemon(sv, nil)
	res, lerr := s.p.Run(remote.Quiet(context.Background()), h.Name, d.JournalScript())
	if lerr != nil {
		return err
	}
	return fmt.Errorf("%w\n%s on %s:\n%s", err, d.JournalScript(), h.Name, secrets.Tokens(string(res.Stdout)))
}

// roundTrips does an auth, PUT, GET and DELETE through every proxy.
func (s *setup) roundTrips(ctx context.Context) error {
	a := cluster.SmokeAuth(s.tb)
	if a == nil {
		s.logf("no v1 auth in the testbed's workloads: the round trip through the proxies is skipped")
		return nil
	}
	hc := &http.Client{Timeout: 30 * time.Second}
	for _, h := range s.hosts {
		_, ls := cluster.HostDaemons(s.tb, s.r, h)
		for _, l := range ls {
			if s.tb.Service(l.Service).Role != "proxy" {
				continue
			}
			if err := cluster.RoundTrip(ctx, hc, h.Name, l.Addr, a); err != nil {
				return err
			}
			s.rep.Note(h.Name, "auth, PUT, GET, DELETE ok")
		}
	}
	return nil
}
