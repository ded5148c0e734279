package remote

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pkg/sftp"
)

// DefaultBinaryDir is where UploadBinary puts binaries when given no dir.
const DefaultBinaryDir = "/var/tmp/benchbed"

// owner resolves user and group names on host to ids (-1, -1 when both are
// empty). Numbers pass through; names are looked up once per run.
func (p *Pool) owner(ctx context.Context, host, user, group string) (int, int, error) {
	if user == "" && group == "" {
		return -1, -1, nil
	}
	key := host + "\x00" + user + ":" + group
	p.state.mu.Lock()
	ids, ok := p.state.owners[key]
	p.state.mu.Unlock()
	if ok {
		return ids[0], ids[1], nil
	}
	u, g := user, group
	if u == "" {
		u = "$(id -un)"
	} else {
		u = Quote(u)
	}
	gcmd := "id -g " + u
	if g != "" {
		gcmd = "getent group " + Quote(g) + " | cut -d: -f3"
	}
	res, err := p.run(Quiet(ctx), host, "owner", "id -u "+u+" && "+gcmd)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: owner %s:%s: %w", host, user, group, err)
	}
	f := strings.Fields(string(res.Stdout))
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("%s: owner %s:%s: no such user or group", host, user, group)
	}
	uid, err1 := strconv.Atoi(f[0])
	gid, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("%s: owner %s:%s: unexpected ids %q", host, user, group, res.Stdout)
	}
	p.state.mu.Lock()
	if p.state.owners == nil {
		p.state.owners = map[string][2]int{}
	}
	p.state.owners[key] = [2]int{uid, gid}
	p.state.mu.Unlock()
	return uid, gid, nil
}

// Download copies remotePath on host to localPath, through a temporary file
// renamed into place, and returns the bytes copied.
func (p *Pool) Download(ctx context.Context, host, remotePath, localPath string) (int64, error) {
	var n int64
	err := p.withSFTP(ctx, host, func(c *sftp.Client) error {
		r, err := c.Open(remotePath)
		if err != nil {
			return err
		}
		defer r.Close()
		tmp, err := os.CreateTemp(filepath.Dir(localPath), "."+filepath.Base(localPath)+".part-*")
		if err != nil {
			return err
		}
		defer os.Remove(tmp.Name())
		if n, err = r.WriteTo(tmp); err != nil {
			tmp.Close()
			return err
		}
		if err := tmp.Close(); err != nil {
			return err
		}
		return os.Rename(tmp.Name(), localPath)
	})
	if err != nil {
		return n, fmt.Errorf("%s: download %s: %w", host, remotePath, err)
	}
	return n, nil
}

// UploadBinary places the executable at localPath on host under dir
// ("" = DefaultBinaryDir), named by its content hash, and returns the remote
// path. dir is made the writer's own (root's on Become hosts) with mode
// 0700, its parents checked (see privateDir); a path someone else owns or
// a symlink there is refused with an *UnsafePathError. A binary already
// there under that name is reused only when its SHA-256 matches; the
// upload is verified by its SHA-256 too.
func (p *Pool) UploadBinary(ctx context.Context, host, localPath, dir string) (string, error) {
	if dir == "" {
		dir = DefaultBinaryDir
	}
	sum, err := p.fileHash(localPath)
	if err != nil {
		return "", err
	}
	dst := path.Join(dir, "benchbed-"+sum[:24])
	key := host + "\x00" + dst
	p.state.mu.Lock()
	done := p.state.bins[key] != ""
	p.state.mu.Unlock()
	if done {
		return dst, nil
	}
	uid, err := p.selfUID(ctx, host)
	if err != nil {
		return "", err
	}
	err = p.withSFTP(ctx, host, func(c *sftp.Client) error { return placeBinary(c, host, localPath, dst, sum, uid) })
	if err != nil {
		return "", fmt.Errorf("%s: upload binary %s: %w", host, localPath, err)
	}
	p.state.mu.Lock()
	if p.state.bins == nil {
		p.state.bins = map[string]string{}
	}
	p.state.bins[key] = dst
	p.state.mu.Unlock()
	return dst, nil
}

// fileHash is the SHA-256 (hex) of a local file, computed once per run.
func (p *Pool) fileHash(localPath string) (string, error) {
	p.state.mu.Lock()
	sum, ok := p.state.hashes[localPath]
	p.state.mu.Unlock()
	if ok {
		return sum, nil
	}
	f, err := os.Open(localPath)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash %s: %w", localPath, err)
	}
	sum = hex.EncodeToString(h.Sum(nil))
	p.state.mu.Lock()
	if p.state.hashes == nil {
		p.state.hashes = map[string]string{}
	}
	p.state.hashes[localPath] = sum
	p.state.mu.Unlock()
	return sum, nil
}
