package remote

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sync"

	"github.com/pkg/sftp"
)

// File is one file to place on a host.
type File struct {
	Path    string      // absolute path on the host
	Content []byte      // the whole content
	Mode    fs.FileMode // permission bits (0 = keep the existing file's, else 0644)
	Owner   string      // user name or uid ("" = keep the existing file's, else the writer's)
	Group   string      // group name or gid ("" = as Owner)
}

// Change says what Upload did.
type Change int

// The outcomes of an Upload.
const (
	Unchanged Change = iota // content, mode and owner were already right
	AttrsOnly               // content was right; mode or owner fixed
	Written                 // new content written
)

// String names the change.
func (c Change) String() string {
	return [...]string{"unchanged", "attributes", "written"}[c]
}

// Upload places f on host atomically: it writes a temporary file in the same
// directory, sets mode and owner, fsyncs it (when the server supports
// fsync@openssh.com) and renames it over f.Path with posix-rename. Content
// already there (same SHA-256) is not sent again. With f.Backup the original
// is kept (once per run) for Restore.
func (p *Pool) Upload(ctx context.Context, host string, f File) (Change, error) {
	if !path.IsAbs(f.Path) {
		return Unchanged, fmt.Errorf("%s: upload: path %q is not absolute", host, f.Path)
	}
	uid, gid, err := p.owner(ctx, host, f.Owner, f.Group)
	if err != nil {
		return Unchanged, err
	}
	var ch Change
	err = p.withSFTP(ctx, host, func(c *sftp.Client) error {
		var err error
		ch, err = p.upload(ctx, c, host, f, uid, gid)
		return err
	})
	if err != nil {
		return ch, fmt.Errorf("%s: upload %s: %w", host, f.Path, err)
	}
	return ch, nil
}

func (p *Pool) upload(ctx context.Context, c *sftp.Client, host string, f File, uid, gid int) (Change, error) {
	old, err := c.Lstat(f.Path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return Unchanged, err
	}
	if old != nil && old.IsDir() {
		return Unchanged, errors.New("a directory is in the way")
	}
	mode, uid, gid := attrsFor(f, old, uid, gid)
	if old != nil && old.Mode().IsRegular() && old.Size() == int64(len(f.Content)) {
		same, err := sameContent(c, f.Path, f.Content)
		if err != nil {
			return Unchanged, err
		}
		if same {
			return fixAttrs(c, f.Path, old, mode, uid, gid)
		}
	}
	tmp, err := writeTemp(c, f.Path, bytes.NewReader(f.Content), mode, uid, gid)
	if err != nil {
		return Unchanged, err
	}
	if err := c.PosixRename(tmp, f.Path); err != nil {
		c.Remove(tmp)
		return Unchanged, err
	}
	return Written, nil
}

// attrsFor decides mode and owner: f's, else the existing regular file's,
// else 0644 and the writer (-1 = leave as created). A symlink in the way is
// replaced by the file, and lends it nothing.
func attrsFor(f File, old fs.FileInfo, uid, gid int) (fs.FileMode, int, int) {
	if old != nil && !old.Mode().IsRegular() {
		old = nil
	}
	mode := f.Mode.Perm()
	st, _ := statOf(old)
	if mode == 0 {
		mode = 0o644
		if old != nil {
			mode = old.Mode().Perm()
		}
	}
	if uid < 0 && st != nil {
		uid = int(st.UID)
	}
	if gid < 0 && st != nil {
		gid = int(st.GID)
	}
	return mode, uid, gid
}

func statOf(fi fs.FileInfo) (*sftp.FileStat, bool) {
	if fi == nil {
		return nil, false
	}
	st, ok := fi.Sys().(*sftp.FileStat)
	return st, ok
}

// fixAttrs sets mode and owner on an existing file whose content is right.
func fixAttrs(c *sftp.Client, p string, old fs.FileInfo, mode fs.FileMode, uid, gid int) (Change, error) {
	ch := Unchanged
	if old.Mode().Perm() != mode {
		if err := c.Chmod(p, mode); err != nil {
			return ch, err
		}
		ch = AttrsOnly
	}
	if st, ok := statOf(old); ok && uid >= 0 && gid >= 0 && (int(st.UID) != uid || int(st.GID) != gid) {
		if err := c.Chown(p, uid, gid); err != nil {
			return ch, err
		}
		ch = AttrsOnly
	}
	return ch, nil
}

// sameContent compares the remote file's SHA-256 with want's.
func sameContent(c *sftp.Client, p string, want []byte) (bool, error) {
	r, err := c.Open(p)
	if err != nil {
		return false, err
	}
	defer r.Close()
	h := sha256.New()
	if _, err := r.WriteTo(h); err != nil {
		return false, err
	}
	w := sha256.Sum256(want)
	return bytes.Equal(h.Sum(nil), w[:]), nil
}

// writeTemp writes src to a new temporary file next to dst, with mode and
// owner set and its data synced, and returns its path.
func writeTemp(c *sftp.Client, dst string, src io.Reader, mode fs.FileMode, uid, gid int) (string, error) {
	var rnd [6]byte
	rand.Read(rnd[:])
	tmp := path.Join(path.Dir(dst), "."+path.Base(dst)+".benchbed-"+hex.EncodeToString(rnd[:]))
	f, err := c.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL)
	if err != nil {
		return "", err
	}
	err = fillFile(c, f, src, mode, uid, gid)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		c.Remove(tmp)
		return "", err
	}
	return tmp, nil
}

func fillFile(c *sftp.Client, f *sftp.File, src io.Reader, mode fs.FileMode, uid, gid int) error {
	if err := f.Chmod(mode); err != nil {
		return err
	}
	if uid >= 0 || gid >= 0 {
		if err := f.Chown(uid, gid); err != nil {
			return fmt.Errorf("chown %d:%d: %w", uid, gid, err)
		}
	}
	if _, err := f.ReadFrom(src); err != nil {
		return err
	}
	if _, ok := c.HasExtension("fsync@openssh.com"); ok {
		return f.Sync()
	}
	return nil
}

// UploadAll uploads files to host concurrently over its one SFTP session
// and returns each file's Change, in order. Every file is attempted; the
// error joins the failures.
func (p *Pool) UploadAll(ctx context.Context, host string, files []File) ([]Change, error) {
	changes := make([]Change, len(files))
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	sem := make(chan struct{}, maxSessions)
	for i, f := range files {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			changes[i], errs[i] = p.Upload(ctx, host, f)
		}()
	}
	wg.Wait()
	return changes, errors.Join(errs...)
}
