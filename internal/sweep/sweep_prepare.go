package sweep

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"benchbed/internal/cluster"
	"benchbed/internal/step"
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

// prepare renders every variant with the cluster's swift.conf hashes (read
// from the builder host, never changed) and saves each variant's confs,
// secrets masked, and ring ports in the run, and the generic services'
// confs; a testbed without Swift services (only generic ones) has no
// hashes to read.
func (s *Sweeper) prepare(ctx context.Context) error {
	have := cluster.Hashes{}
	if len(s.tb.Services) > 0 {
		b, err := cluster.BuilderHost(s.tb)
		if err != nil {
			return err
		}
		if have, err = cluster.ReadHashes(ctx, s.p, b.Name); err != nil {
			return err
		}
		if len(have) < 2 {
			return fmt.Errorf("%s: swift.conf has no hash path prefix and suffix: run `benchbed setup %s` first", b.Name, s.tb.File)
		}
	}
	s.tb = s.tb.WithSecrets(have.Values()...)
	s.rend = map[string]*render.Rendering{}
	for _, v := range s.tb.Variants {
		r, err := render.Render(s.tb, v, render.Options{})
		if err != nil {
			return err
		}
		for _, c := range r.Confs {
			if c.Path == render.SwiftConfPath {
				have.Apply(c.File)
			}
		}
		s.rend[v.Name] = r
	}
	s.prepareRings(ctx)
	return s.prepareGeneric(ctx)
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
		return s.rend[""]
	}
	return s.rend[s.tb.Variants[0].Name]
}
