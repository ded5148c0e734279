package orchestrate

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/remote"
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
	s.j, err = s.run.OpenJournal()
	return err
}

// saveTestbed keeps the testbed file as used and sweep.json in the run.
func (s *Sweeper) saveTestbed() error {
	src, err := os.ReadFile(s.tb.File)
	if err != nil {
		return err
	}
	// Sensitive values (a variable's default) never reach the run.
	if err := s.run.WriteFile(rundir.TestbedFile, []byte(s.tb.Mask(string(src)))); err != nil {
		return err
	}
	abs, err := filepath.Abs(s.tb.File)
	if err != nil {
		return err
	}
	return s.run.WriteSweepInfo(rundir.SweepInfo{Testbed: abs, Name: s.tb.Name, Started: s.run.Started})
}

// preflight checks every host before anything changes.
func (s *Sweeper) preflight(ctx context.Context) error {
	rep := remote.Preflight(ctx, s.p, []string{"python3", "ss", "sha256sum", "cp", "date"})
	if err := rep.Err(); err != nil {
		if s.opts.Log != nil {
			_ = rep.Render(s.opts.Log)
		}
		return err
	}
	return nil
}

func (s *Sweeper) lock(ctx context.Context) error {
	stale, err := lock(ctx, s.p, s.p.Hosts(), newHolder(s.run.ID), s.opts.BreakLock)
	for _, st := range stale {
		s.logf("%s", st)
		s.journal(rundir.Entry{Step: "lock", Host: st.Host, Status: rundir.StepOK, Detail: st.String(),
			Data: map[string]string{"stale_run": st.Holder.Run, "stale_pid": strconv.Itoa(st.Holder.PID)}})
	}
	return err
}

// unlock releases the sweep's locks, but on a host whose originals could
// not be put back: no other sweep starts on it before `benchbed restore`.
func (s *Sweeper) unlock(ctx context.Context) error {
	hosts := slices.DeleteFunc(s.p.Hosts(), func(h string) bool { return slices.Contains(s.notRestored, h) })
	return unlock(ctx, s.p, hosts, s.run.ID)
}

func (s *Sweeper) captureEnv(ctx context.Context) error {
	return captureEnv(ctx, s.p, s.run, s.p.Hosts())
}

// prepare renders every variant with the cluster's swift.conf hashes (read
// from the builder host, never changed) and saves each variant's confs,
// secrets masked, and ring ports in the run, and the generic services'
// confs; a testbed without Swift services (only generic ones) has no
// hashes to read.
func (s *Sweeper) prepare(ctx context.Context) error {
	have := hashes{}
	if len(s.tb.Services) > 0 {
		b, err := builderHost(s.tb)
		if err != nil {
			return err
		}
		if have, err = readHashes(ctx, s.p, b.Name); err != nil {
			return err
		}
		if len(have) < 2 {
			return fmt.Errorf("%s: swift.conf has no hash path prefix and suffix: run `benchbed setup %s` first", b.Name, s.tb.File)
		}
	}
	s.tb = s.tb.WithSecrets(have.Values()...)
	s.rend = map[string]*render.Rendering{}
	for i, v := range s.tb.Variants {
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
		if i == 0 {
			s.base = r
		}
	}
	return s.prepareGeneric(ctx)
}

// backupFiles lists per host every file the sweep may change: each conf
// any variant renders there, the ring files on the service hosts, and the
// builders on the builder host.
func (s *Sweeper) backupFiles() (map[string][]string, error) {
	files := map[string][]string{}
	s.genericBackupFiles(files)
	if len(s.tb.Rings) == 0 && len(s.tb.Services) == 0 {
		return files, nil
	}
	b, err := builderHost(s.tb)
	if err != nil {
		return nil, err
	}
	add := func(host, p string) {
		if !slices.Contains(files[host], p) {
			files[host] = append(files[host], p)
		}
	}
	for _, v := range s.tb.Variants {
		for _, c := range s.rend[v.Name].Confs {
			add(c.Host.Name, c.Path)
		}
	}
	for _, h := range serviceHosts(s.tb) {
		for _, f := range ringFiles(s.tb) {
			add(h.Name, f)
		}
	}
	for _, r := range s.tb.Rings {
		add(b.Name, builderPath(swiftDir, r.Name))
	}
	return files, nil
}

func (s *Sweeper) takeBackup(ctx context.Context) error {
	files, err := s.backupFiles()
	if err != nil {
		return err
	}
	s.backup, err = takeBackup(ctx, s.p, s.run, files, s.opts.Resume != "")
	var n int
	for _, fs := range s.backup {
		n += len(fs)
	}
	s.logf("backed up %d files on %d hosts", n, len(s.backup))
	return err
}

// restoreIfWanted restores the lab unless the testbed says not to.
func (s *Sweeper) restoreIfWanted(ctx context.Context) error {
	if !s.tb.Sweep.Restore {
		s.logf("sweep.restore is false: the lab keeps the last cell's confs; `benchbed restore %s` restores it", s.run.Dir)
		return nil
	}
	if !s.touched && s.opts.Resume == "" {
		// No cell began (and no earlier attempt ran one): the files are
		// the originals and no server was restarted; the originals are
		// put back and checked, and the copies go, without restarts.
		return s.dropBackups(ctx)
	}
	s.logf("restoring the original confs and rings")
	var err error
	s.notRestored, err = restoreLab(ctx, s.tb, s.p, s.base, s.backup, s.opts.Log, s.settled)
	return err
}

// dropBackups puts back and checks the originals and removes the backups,
// restarting nothing; a host where that fails keeps them and its lock.
func (s *Sweeper) dropBackups(ctx context.Context) error {
	byHost := restoreFilesByHost(ctx, s.p, s.backup)
	var errs []error
	for _, h := range slices.Sorted(maps.Keys(byHost)) {
		if err := byHost[h].err; err != nil {
			errs = append(errs, err)
			s.notRestored = append(s.notRestored, h)
		}
	}
	return errors.Join(errs...)
}

// cellLabel is a cell's row label in the table: the variant's description
// (a row's text, e.g. "normal; 29 workers") or name, with the workload and repeat when the
// matrix has several.
func cellLabel(tb *plan.Testbed, c plan.Cell) string {
	l := pairLabel(tb, c)
	if tb.Sweep.Repeat > 1 {
		l += fmt.Sprintf(" #%d", c.Repeat)
	}
	return l
}
