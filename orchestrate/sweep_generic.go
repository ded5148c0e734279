package orchestrate

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"benchbed/plan"
	"benchbed/render"
)

// genericState is what a sweep knows of the generic services it runs.
type genericState struct {
	mu    sync.Mutex
	confs map[string][]*render.GenericConf // by variant name
	cmd   map[string]string                // "host/service" -> the command line this sweep last started
	// before: "host/service" -> whether it ran when the sweep first
	// touched it; the restore stops those that did not.
	before map[string]bool
}

func genericKey(host, service string) string { return host + "/" + service }

// prepareGeneric keeps every variant's generic confs (rendered with its
// Swift confs) and resets what the restore needs.
func (s *Sweeper) prepareGeneric(context.Context) error {
	s.gen.confs = map[string][]*render.GenericConf{}
	s.gen.cmd, s.gen.before = map[string]string{}, map[string]bool{}
	for _, v := range s.tb.Variants {
		s.gen.confs[v.Name] = s.rend[v.Name].Generic
	}
	return nil
}

// genericBackupFiles adds every generic conf path to files (per host).
func (s *Sweeper) genericBackupFiles(files map[string][]string) {
	for _, v := range s.tb.Variants {
		for _, c := range s.gen.confs[v.Name] {
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
	rep := NewReport(names(s.tb.Hosts))
	err := s.p.FanOut(ctx, names(GenericHosts(s.tb)), func(ctx context.Context, host string) error {
		changed, err := PushGenericConfs(ctx, s.p, s.gen.confs[v.Name], host, rep)
		if err != nil {
			return err
		}
		for _, g := range hostGenerics(s.tb, s.tb.Host(host)) {
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
	return s.genericHealthy(ctx, names(GenericHosts(s.tb)))
}

// startGeneric starts or restarts g on host for variant v and records
// what the restore needs.
func (s *Sweeper) startGeneric(ctx context.Context, host string, g *plan.Generic, v *plan.Variant, changed bool, rep *Report) error {
	key, line := genericKey(host, g.Name), GenericCommandLine(g, v)
	s.gen.mu.Lock()
	last, started := s.gen.cmd[key]
	s.gen.mu.Unlock()
	was, err := StartGeneric(ctx, s.p, host, g, v, changed || last != line, rep)
	s.gen.mu.Lock()
	defer s.gen.mu.Unlock()
	if !started {
		s.gen.before[key] = was
	}
	if err == nil {
		s.gen.cmd[key] = line
	}
	return err
}

// genericHealthy waits for every generic service of hosts.
func (s *Sweeper) genericHealthy(ctx context.Context, hosts []string) error {
	hc := &http.Client{Timeout: 5 * time.Second}
	ctx, cancel := context.WithTimeout(ctx, s.opts.HealthTimeout)
	defer cancel()
	return s.p.FanOut(ctx, hosts, func(ctx context.Context, host string) error {
		for _, g := range hostGenerics(s.tb, s.tb.Host(host)) {
			if err := WaitGenericHealthy(ctx, s.p, hc, s.tb.Host(host), g); err != nil {
				return err
			}
		}
		return nil
	}).Err()
}

// restoreAll is the backup step's cleanup: the original files back
// (restoreIfWanted), then the generic services as they were.
func (s *Sweeper) restoreAll(ctx context.Context) error {
	err := s.restoreIfWanted(ctx)
	if !s.tb.Sweep.Restore {
		return err
	}
	return errors.Join(err, s.restoreGeneric(ctx))
}

// restoreGeneric runs after the original files are back: a generic
// service this sweep started is stopped, one that ran before is restarted
// on its original conf as declared, and checked.
func (s *Sweeper) restoreGeneric(ctx context.Context) error {
	rep := NewReport(names(s.tb.Hosts))
	var again []string
	err := s.p.FanOut(ctx, names(GenericHosts(s.tb)), func(ctx context.Context, host string) error {
		var errs []error
		for _, g := range hostGenerics(s.tb, s.tb.Host(host)) {
			s.gen.mu.Lock()
			was, touched := s.gen.before[genericKey(host, g.Name)]
			s.gen.mu.Unlock()
			switch {
			case !touched:
			case !was:
				errs = append(errs, StopGeneric(ctx, s.p, host, g))
				rep.Change(host, "stopped %s (it did not run before the sweep)", g.Name)
			default:
				_, err := StartGeneric(ctx, s.p, host, g, nil, true, rep)
				errs = append(errs, err)
			}
		}
		return errors.Join(errs...)
	}).Err()
	s.logChanges(rep)
	for k, was := range s.gen.before {
		if h, _, _ := strings.Cut(k, "/"); was && !slices.Contains(again, h) {
			again = append(again, h)
		}
	}
	if err != nil || len(again) == 0 {
		return err
	}
	return s.genericHealthy(ctx, again)
}
