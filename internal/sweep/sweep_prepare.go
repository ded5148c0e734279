package sweep

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"benchbed/internal/cluster"
	"benchbed/internal/cluster/rings"
	"benchbed/internal/custody"
	"benchbed/internal/step"
	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/results/rundir"
)

// openRun creates the run directory (or opens the one to resume), opens
// its journal and keeps the cells an earlier attempt finished.
func (s *Sweeper) openRun() error {
	var err error
	if s.opts.Resume != "" {
		s.run, err = rundir.Resolve(s.opts.RunsDir, s.tb.Name, s.opts.Resume)
	} else {
		s.run, err = rundir.NewRun(s.opts.RunsDir, s.tb.Name, time.Now())
	}
	if err != nil {
		return err
	}
	if s.opts.Resume != "" {
		entries, err := s.run.ReadJournal()
		if err != nil {
			return err
		}
		s.finished = rundir.Finished(entries)
	} else if err := s.saveTestbed(); err != nil {
		return err
	}
	j, err := s.run.OpenJournal()
	if err != nil {
		return err
	}
	s.steps = &step.Runner{Journal: j, Mask: s.Mask, Log: s.logf, Failed: s.failedStep("")}
	s.locks = &custody.Locks{Pool: s.p, Hosts: s.p.Hosts(), Run: s.run.ID, Force: s.opts.BreakLock, Journal: s.steps, Log: s.logf}
	return nil
}

// saveTestbed keeps the testbed as used and sweep.json in the run: every
// file of the testbed, as read at the load, in one text (its includes
// inlined), and the files' names.
func (s *Sweeper) saveTestbed() error {
	// Sensitive values (a variable's default) never reach the run.
	if err := s.run.WriteFile(rundir.TestbedFile, s.tb.MaskedSource(s.tb.Inlined())); err != nil {
		return err
	}
	abs, err := filepath.Abs(s.tb.File)
	if err != nil {
		return err
	}
	return s.run.WriteSweepInfo(rundir.SweepInfo{Testbed: abs, Name: s.tb.Name, Started: s.run.Started, Files: s.tb.Sources})
}

// preflight checks every host before anything changes.
func (s *Sweeper) preflight(ctx context.Context) error {
	cats, err := cluster.SweepPreflight(ctx, s.p, s.tb, s.opts.Log)
	if cats != nil {
		err = errors.Join(err, s.run.WriteJSON(rundir.CatalogFile, cats))
	}
	return err
}

func (s *Sweeper) captureEnv(ctx context.Context) error {
	return cluster.CaptureEnv(ctx, s.p, s.run, s.p.Hosts())
}

// rendered is what the render step makes, for every later step: the
// testbed that also masks the cluster's secrets (swift.conf's hashes),
// every variant's rendering by name, and the ring files made ahead (nil:
// none).
type rendered struct {
	tb    *plan.Testbed
	rend  map[string]*render.Rendering
	rings *rings.Prepared
}

// keepRendered keeps what the render step returns: from then on the sweep
// masks the cluster's secrets too (r.tb); nothing when it failed.
func (s *Sweeper) keepRendered(r rendered) {
	if r.tb != nil {
		s.tb, s.made.rendered = r.tb, r
	}
}

// render is the render step: it renders every variant with the cluster's swift.conf hashes (read
// from the builder host, never changed) and makes the variants' ring files
// ahead (prepareRings); a testbed without Swift services (only generic
// ones) has no hashes to read.
func (s *Sweeper) render(ctx context.Context) (rendered, error) {
	have := cluster.Hashes{}
	if len(s.tb.Services) > 0 {
		b, err := s.tb.BuilderHost()
		if err != nil {
			return rendered{}, err
		}
		if have, err = cluster.ReadHashes(ctx, s.p, b.Name); err != nil {
			return rendered{}, err
		}
		if len(have) < 2 {
			return rendered{}, fmt.Errorf("%s: swift.conf has no hash path prefix and suffix: run `benchbed setup %s` first", b.Name, s.tb.File)
		}
	}
	out := rendered{tb: s.tb.WithSecrets(have.Values()...), rend: map[string]*render.Rendering{}}
	for _, v := range out.tb.Variants {
		r, err := render.Render(out.tb, v, render.Options{})
		if err != nil {
			return rendered{}, err
		}
		for _, c := range r.Confs {
			if c.Path == render.SwiftConfPath {
				have.Apply(c.File)
			}
		}
		out.rend[v.Name] = r
	}
	out.rings = s.prepareRings(ctx, out)
	return out, nil
}

// closeJournal closes the run's journal.
func (s *Sweeper) closeJournal() {
	if j, ok := s.steps.Journal.(*rundir.Journal); ok {
		_ = j.Close()
	}
}

// base is the first variant's rendering: what setup installs and the
// restore restarts.
func (s *Sweeper) base() *render.Rendering {
	if len(s.tb.Variants) == 0 {
		return s.made.rend[""]
	}
	return s.made.rend[s.tb.Variants[0].Name]
}
