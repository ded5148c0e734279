package sweep

import (
	"benchbed/internal/custody"
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"

	"benchbed/internal/cluster"
	"benchbed/plan"
)

// genericState is what a sweep knows of the generic services it runs
// (their confs are each variant's rendering's).
type genericState struct {
	mu  sync.Mutex
	cmd map[string]string // "host/service" -> the command line this sweep last started
	// before: "host/service" -> whether it ran when the sweep first
	// touched it; the restore stops those that did not.
	before map[string]bool
}

// genericBackupFiles adds every generic conf path to files (per host).
func (s *Sweeper) genericBackupFiles(files map[string][]string) {
	for _, v := range s.tb.Variants {
		for _, c := range s.made.rend[v.Name].Generic {
			if !slices.Contains(files[c.Host.Name], c.Path) {
				files[c.Host.Name] = append(files[c.Host.Name], c.Path)
			}
		}
	}
}

// runGeneric brings every generic service to variant v: its confs pushed,
// the services whose conf or command line changed restarted (those not
// running started), their after_start run, then their health checked.
func (s *Sweeper) runGeneric(ctx context.Context, v *plan.Variant) error {
	rep := cluster.NewReport(cluster.Names(s.tb.Hosts))
	err := s.p.FanOut(ctx, cluster.Names(cluster.GenericHosts(s.tb)), func(ctx context.Context, host string) error {
		changed, err := cluster.PushGenericConfs(ctx, s.p, s.made.rend[v.Name].Generic, host, rep)
		if err != nil {
			return err
		}
		for _, g := range cluster.HostGenerics(s.tb, s.tb.Host(host)) {
			if err := s.startGeneric(ctx, host, g, v, changed[g.Name], rep); err != nil {
				return err
			}
		}
		return nil
	}).Err()
	s.logChanges(rep)
	if err != nil {
		return err
	}
	return cluster.GenericHealthy(ctx, s.tb, s.p, cluster.Names(cluster.GenericHosts(s.tb)), s.opts.HealthTimeout)
}

// startGeneric starts or restarts g on host for variant v and records
// what the restore needs. A change of its command line or of its
// after_start commands restarts it, as a change of its conf does: what
// after_start did (a cache manager's bypass threshold) lasts until then.
func (s *Sweeper) startGeneric(ctx context.Context, host string, g *plan.Generic, v *plan.Variant, changed bool, rep *cluster.Report) error {
	key := cluster.GenericKey(host, g.Name)
	line := cluster.GenericCommandLine(g, v) + "\n" + strings.Join(g.AfterStartIn(v), "\n")
	s.gen.mu.Lock()
	last, started := s.gen.cmd[key]
	s.gen.mu.Unlock()
	was, err := cluster.StartGenericService(ctx, s.p, host, g, v, changed || last != line, rep)
	s.gen.mu.Lock()
	defer s.gen.mu.Unlock()
	if err == nil {
		s.gen.cmd[key] = line
	}
	if _, known := s.gen.before[key]; started || known {
		return err
	}
	s.gen.before[key] = was
	return errors.Join(err, custody.WriteGenericState(s.run, s.gen.before))
}

// restoreGeneric runs after the original files are back: restoreGenericServices
// with what this sweep recorded.
func (s *Sweeper) restoreGeneric(ctx context.Context) error {
	s.gen.mu.Lock()
	before := maps.Clone(s.gen.before)
	s.gen.mu.Unlock()
	rep := cluster.NewReport(cluster.Names(s.tb.Hosts))
	err := cluster.RestoreGenericServices(ctx, s.tb, s.p, before, rep, s.opts.HealthTimeout)
	s.logChanges(rep)
	return err
}
