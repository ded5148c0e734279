package remote

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/pkg/sftp"
)

// selfUID is the uid files written over SFTP on host get: root's for
// Become hosts (sftp-server runs under sudo), else the connecting user's.
func (p *Pool) selfUID(ctx context.Context, host string) (int, error) {
	if ep := p.eps[host]; ep != nil && ep.become {
		return 0, nil
	}
	key := host + "\x00self"
	p.state.mu.Lock()
	ids, ok := p.state.owners[key]
	p.state.mu.Unlock()
	if ok {
		return ids[0], nil
	}
	res, err := p.run(Quiet(ctx), host, "id -u", "id -u")
	if err != nil {
		return 0, fmt.Errorf("%s: id -u: %w", host, err)
	}
	uid, err := strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
	if err != nil {
		return 0, fmt.Errorf("%s: id -u: unexpected %q", host, res.Stdout)
	}
	p.state.mu.Lock()
	if p.state.owners == nil {
		p.state.owners = map[string][2]int{}
	}
	p.state.owners[key] = [2]int{uid, -1}
	p.state.mu.Unlock()
	return uid, nil
}

// UnsafePathError is a host path benchbed will not trust: someone else's,
// writable by others, or a symlink where a directory or file must be.
type UnsafePathError struct {
	Host, Path, Why string
}

func (e *UnsafePathError) Error() string {
	return fmt.Sprintf("%s: %s: %s; benchbed will not trust it (remove it, or give another directory)", e.Host, e.Path, e.Why)
}

func uidOf(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*sftp.FileStat); ok {
		return int(st.UID)
	}
	return -1
}

// privateDir makes dir on host a directory owned by uid with mode 0700,
// creating it when absent. Its parents must be directories owned by root
// or uid, and writable by others only when sticky (as /var/tmp is); a
// symlinked parent is followed only when root or uid owns the link. An
// existing dir of another owner, or a symlink, is refused.
func privateDir(c *sftp.Client, host, dir string, uid int) error {
	dir = path.Clean(dir)
	if !path.IsAbs(dir) || dir == "/" {
		return &UnsafePathError{host, dir, "not an absolute directory below /"}
	}
	if err := checkParents(c, host, path.Dir(dir), uid); err != nil {
		return err
	}
	fi, err := c.Lstat(dir)
	if err != nil {
		if !isNotExist(err) {
			return fmt.Errorf("%s: %s: %w", host, dir, err)
		}
		if err := c.Mkdir(dir); err != nil {
			return fmt.Errorf("%s: mkdir %s: %w", host, dir, err)
		}
		if fi, err = c.Lstat(dir); err != nil {
			return fmt.Errorf("%s: %s: %w", host, dir, err)
		}
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return &UnsafePathError{host, dir, "a symlink, not a directory"}
	case !fi.IsDir():
		return &UnsafePathError{host, dir, "not a directory"}
	case uidOf(fi) != uid:
		return &UnsafePathError{host, dir, fmt.Sprintf("owned by uid %d, not %d", uidOf(fi), uid)}
	}
	if fi.Mode().Perm() != 0o700 {
		if err := c.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("%s: chmod 0700 %s: %w", host, dir, err)
		}
	}
	return nil
}

// checkParents checks dir and every directory above it (see privateDir).
func checkParents(c *sftp.Client, host, dir string, uid int) error {
	for d := dir; ; d = path.Dir(d) {
		fi, err := c.Lstat(d)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", host, d, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			if o := uidOf(fi); o != 0 && o != uid {
				return &UnsafePathError{host, d, fmt.Sprintf("a symlink owned by uid %d", o)}
			}
			if fi, err = c.Stat(d); err != nil {
				return fmt.Errorf("%s: %s: %w", host, d, err)
			}
		}
		switch o := uidOf(fi); {
		case !fi.IsDir():
			return &UnsafePathError{host, d, "not a directory"}
		case o != 0 && o != uid:
			return &UnsafePathError{host, d, fmt.Sprintf("a parent owned by uid %d", o)}
		case fi.Mode().Perm()&0o022 != 0 && fi.Mode()&fs.ModeSticky == 0:
			return &UnsafePathError{host, d, fmt.Sprintf("a parent writable by others (mode %04o) without the sticky bit", fi.Mode().Perm())}
		}
		if d == "/" {
			return nil
		}
	}
}

func isNotExist(err error) bool {
	if os.IsNotExist(err) {
		return true
	}
	se, ok := err.(*sftp.StatusError)
	return ok && se.FxCode() == sftp.ErrSSHFxNoSuchFile
}

// remoteHash is the SHA-256 (hex) of a file on the host, read over SFTP.
func remoteHash(c *sftp.Client, p string) (string, error) {
	f, err := c.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := f.WriteTo(h); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// placeBinary puts localPath (of hash sum) at dst in a private directory
// (privateDir). A file already at dst is reused only when it is a regular
// file of uid, not writable by others, with that hash; anything else there
// (a planted file, a symlink) is replaced by a rename over it. The upload
// is hashed again before the rename.
func placeBinary(c *sftp.Client, host, localPath, dst, sum string, uid int) error {
	if err := privateDir(c, host, path.Dir(dst), uid); err != nil {
		return err
	}
	if fi, err := c.Lstat(dst); err == nil && fi.Mode().IsRegular() && uidOf(fi) == uid && fi.Mode().Perm()&0o022 == 0 {
		if got, err := remoteHash(c, dst); err == nil && got == sum {
			return nil
		}
	}
	local, err := os.Open(localPath)
	if err != nil {
		return err
	}
	defer local.Close()
	tmp, err := writeTemp(c, dst, io.Reader(local), 0o755, -1, -1)
	if err != nil {
		return err
	}
	if got, err := remoteHash(c, tmp); err != nil || got != sum {
		c.Remove(tmp)
		if err == nil {
			err = fmt.Errorf("sha256 %s after upload, want %s", got, sum)
		}
		return fmt.Errorf("%s: verify %s: %w", host, tmp, err)
	}
	return c.PosixRename(tmp, dst)
}
