package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"

	"github.com/pkg/sftp"
)

// Suffixes of the files that hold a backup on the host: the original's
// content and attributes, or an empty marker saying there was no original.
const (
	BackupSuffix = ".benchbed-orig"
	AbsentSuffix = ".benchbed-absent"
)

// runState is what a Pool remembers for the run: backups taken, owners
// resolved, binaries placed. Its size grows with hosts and files, never with
// commands.
type runState struct {
	mu      sync.Mutex
	backups map[string][]string // host -> paths backed up, in order
	owners  map[string][2]int   // host+"\x00"+owner+":"+group -> uid, gid
	bins    map[string]string   // host+"\x00"+hash -> remote path
	hashes  map[string]string   // local path -> sha256 hex
}

func (s *runState) backedUp(host, p string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Contains(s.backups[host], p)
}

func (s *runState) addBackup(host, p string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.backups == nil {
		s.backups = map[string][]string{}
	}
	s.backups[host] = append(s.backups[host], p)
}

// backup keeps the original of p once per run: a hard link (same inode,
// mode and owner) or, where the server has no hardlink extension, a copy. A
// backup left by an earlier run that never restored is kept, since it is the
// older original.
func (p *Pool) backup(c *sftp.Client, host, path string, exists bool) error {
	if p.state.backedUp(host, path) {
		return nil
	}
	for _, suf := range []string{BackupSuffix, AbsentSuffix} {
		if _, err := c.Lstat(path + suf); err == nil {
			p.state.addBackup(host, path)
			return nil
		}
	}
	var err error
	switch {
	case !exists:
		err = createEmpty(c, path+AbsentSuffix)
	case hasExt(c, "hardlink@openssh.com"):
		err = c.Link(path, path+BackupSuffix)
	default:
		err = copyRemote(c, path, path+BackupSuffix)
	}
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	p.state.addBackup(host, path)
	return nil
}

func hasExt(c *sftp.Client, name string) bool {
	_, ok := c.HasExtension(name)
	return ok
}

func createEmpty(c *sftp.Client, p string) error {
	f, err := c.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL)
	if err != nil {
		return err
	}
	return f.Close()
}

// copyRemote copies src to a new dst with src's mode and owner.
func copyRemote(c *sftp.Client, src, dst string) error {
	fi, err := c.Lstat(src)
	if err != nil {
		return err
	}
	r, err := c.Open(src)
	if err != nil {
		return err
	}
	defer r.Close()
	uid, gid := -1, -1
	if st, ok := statOf(fi); ok {
		uid, gid = int(st.UID), int(st.GID)
	}
	tmp, err := writeTemp(c, dst, io.Reader(r), fi.Mode().Perm(), uid, gid)
	if err != nil {
		return err
	}
	return c.PosixRename(tmp, dst)
}

// Restore puts back every file of host backed up during this run, newest
// first: the original returns by rename, a file that did not exist before
// is removed.
func (p *Pool) Restore(ctx context.Context, host string) error {
	p.state.mu.Lock()
	paths := slices.Clone(p.state.backups[host])
	p.state.mu.Unlock()
	if len(paths) == 0 {
		return nil
	}
	var errs []error
	err := p.withSFTP(ctx, host, func(c *sftp.Client) error {
		for i := len(paths) - 1; i >= 0; i-- {
			if err := restoreOne(c, paths[i]); err != nil {
				errs = append(errs, fmt.Errorf("%s: restore %s: %w", host, paths[i], err))
				continue
			}
			p.state.dropBackup(host, paths[i])
		}
		return nil
	})
	return errors.Join(append(errs, err)...)
}

func (s *runState) dropBackup(host, p string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.backups[host] = slices.DeleteFunc(s.backups[host], func(x string) bool { return x == p })
}

func restoreOne(c *sftp.Client, p string) error {
	if _, err := c.Lstat(p + BackupSuffix); err == nil {
		return c.PosixRename(p+BackupSuffix, p)
	}
	if _, err := c.Lstat(p + AbsentSuffix); err != nil {
		return fmt.Errorf("no backup found (%s or %s)", BackupSuffix, AbsentSuffix)
	}
	if err := c.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return c.Remove(p + AbsentSuffix)
}

// BackedUp returns the paths of host with a backup taken in this run.
func (p *Pool) BackedUp(host string) []string {
	p.state.mu.Lock()
	defer p.state.mu.Unlock()
	return slices.Clone(p.state.backups[host])
}
