package sweep

import (
	"context"
	"errors"
	"maps"
	"slices"

	"benchbed/internal/cluster"
	"benchbed/internal/cluster/rings"
	"benchbed/internal/custody"
	"benchbed/results/rundir"
)

// lock takes the sweep lock on every host (custody.Locks: the protocol
// `benchbed restore` shares); its undo, unlock, releases them, but on the
// hosts whose originals the backup's undo could not put back (Keep).
func (s *Sweeper) lock(ctx context.Context) error { return s.locks.Take(ctx) }

func (s *Sweeper) unlock(ctx context.Context) error { return s.locks.Release(ctx) }

// backupFiles lists per host every file the sweep may change: each conf
// any variant renders there, the ring files on the service hosts, and the
// builders on the builder host.
func (s *Sweeper) backupFiles() (map[string][]string, error) {
	files := map[string][]string{}
	s.genericBackupFiles(files)
	if len(s.tb.Rings) == 0 && len(s.tb.Services) == 0 {
		return files, nil
	}
	b, err := s.tb.BuilderHost()
	if err != nil {
		return nil, err
	}
	add := func(host, p string) {
		if !slices.Contains(files[host], p) {
			files[host] = append(files[host], p)
		}
	}
	for _, v := range s.tb.Variants {
		for _, c := range s.made.rend[v.Name].Confs {
			add(c.Host.Name, c.Path)
		}
	}
	for _, h := range cluster.ServiceHosts(s.tb) {
		for _, f := range rings.RingFiles(s.tb) {
			add(h.Name, f)
		}
	}
	for _, r := range s.tb.Rings {
		add(b.Name, rings.BuilderPath(cluster.SwiftDir, r.Name))
	}
	return files, nil
}

// takeBackup backs up every file the sweep may change (custody.TakeBackup,
// the shell copies ending in custody.BackupSuffix); its undo, restoreAll,
// puts the originals back and the generic services as they were. What it
// returns with an error is the part taken: what the undo puts back.
func (s *Sweeper) takeBackup(ctx context.Context) (rundir.Backup, error) {
	files, err := s.backupFiles()
	if err != nil {
		return nil, err
	}
	backup, err := custody.TakeBackup(ctx, s.p, s.run, files, s.opts.Resume != "")
	var n int
	for _, fs := range backup {
		n += len(fs)
	}
	s.logf("backed up %d files on %d hosts", n, len(backup))
	return backup, err
}

// keepBackup keeps what the backup step took, for its undo.
func (s *Sweeper) keepBackup(b rundir.Backup) { s.made.backup = b }

// restoreIfWanted restores the lab unless the testbed says not to.
func (s *Sweeper) restoreIfWanted(ctx context.Context) error {
	if !s.tb.Sweep.Restore {
		s.logf("sweep.restore is false: the lab keeps the last cell's confs; `benchbed restore %s` restores it", s.run.Dir)
		return nil
	}
	if !s.lab.touched && s.opts.Resume == "" {
		// No cell began (and no earlier attempt ran one): the files are
		// the originals and no server was restarted; the originals are
		// put back and checked, and the copies go, without restarts.
		return s.dropBackups(ctx)
	}
	s.logf("restoring the original confs and rings")
	notBack, err := custody.RestoreLab(ctx, s.tb, s.p, s.base(), s.made.backup, s.opts.Log, s.lab.settled, s.opts.HealthTimeout)
	s.locks.Keep(notBack...)
	return err
}

// dropBackups puts back and checks the originals and removes the backups,
// restarting nothing; a host where that fails keeps them and its lock.
func (s *Sweeper) dropBackups(ctx context.Context) error {
	byHost := custody.RestoreFilesByHost(ctx, s.p, s.made.backup)
	var errs []error
	for _, h := range slices.Sorted(maps.Keys(byHost)) {
		if err := byHost[h].Err; err != nil {
			errs = append(errs, err)
			s.locks.Keep(h)
		}
	}
	return errors.Join(errs...)
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
