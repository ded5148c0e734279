package remote

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pkg/sftp"
)

// remoteRead reads a file from the host through the pool's SFTP client.
func remoteRead(t *testing.T, p *Pool, host, path string) (string, bool) {
	t.Helper()
	var out []byte
	err := p.withSFTP(context.Background(), host, func(c *sftp.Client) error {
		f, err := c.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		st, _ := f.Stat()
		out = make([]byte, st.Size())
		_, err = f.Read(out)
		return err
	})
	if errors.Is(err, os.ErrNotExist) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(out), true
}

// TestUploadSkipsSameContent: a file already there with the same content
// is not written again; a different one is.
func TestUploadSkipsSameContent(t *testing.T) {
	p, _ := newTestPool(t, 1)
	ctx := context.Background()
	up := func(path, content string) Change {
		t.Helper()
		ch, err := p.Upload(ctx, "h0", File{Path: path, Content: []byte(content)})
		if err != nil {
			t.Fatal(err)
		}
		return ch
	}
	if ch := up("/conf", "variant a\n"); ch != Written {
		t.Fatalf("first change = %v", ch)
	}
	if ch := up("/conf", "variant a\n"); ch != Unchanged {
		t.Fatalf("same content = %v, want unchanged", ch)
	}
	if ch := up("/conf", "variant b\n"); ch != Written {
		t.Fatalf("second change = %v", ch)
	}
	if got, _ := remoteRead(t, p, "h0", "/conf"); got != "variant b\n" {
		t.Fatalf("content = %q", got)
	}
}

func TestUploadLeavesNoTemporaryFiles(t *testing.T) {
	p, _ := newTestPool(t, 1)
	ctx := context.Background()
	if _, err := p.Upload(ctx, "h0", File{Path: "/a", Content: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Upload(ctx, "h0", File{Path: "relative", Content: []byte("x")}); err == nil || !strings.Contains(err.Error(), "not absolute") {
		t.Fatalf("relative path: %v", err)
	}
	if _, err := p.Upload(ctx, "h0", File{Path: "/no/such/dir/f", Content: []byte("x")}); err == nil || !strings.Contains(err.Error(), "h0: upload /no/such/dir/f") {
		t.Fatalf("missing dir: %v", err)
	}
	p.withSFTP(ctx, "h0", func(c *sftp.Client) error { return c.Mkdir("/d") })
	if _, err := p.Upload(ctx, "h0", File{Path: "/d", Content: []byte("x")}); err == nil || !strings.Contains(err.Error(), "directory is in the way") {
		t.Fatalf("directory in the way: %v", err)
	}
	var names []string
	p.withSFTP(ctx, "h0", func(c *sftp.Client) error {
		fis, err := c.ReadDir("/")
		for _, fi := range fis {
			names = append(names, fi.Name())
		}
		return err
	})
	if strings.Join(names, " ") != "a d" {
		t.Fatalf("root holds %v, want only a and d", names)
	}
}

func TestDownload(t *testing.T) {
	p, _ := newTestPool(t, 1)
	ctx := context.Background()
	if _, err := p.Upload(ctx, "h0", File{Path: "/log", Content: []byte("line 1\nline 2\n")}); err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(t.TempDir(), "log")
	n, err := p.Download(ctx, "h0", "/log", local)
	if err != nil || n != 14 {
		t.Fatalf("download: %d %v", n, err)
	}
	if b, _ := os.ReadFile(local); string(b) != "line 1\nline 2\n" {
		t.Fatalf("downloaded %q", b)
	}
	if _, err := p.Download(ctx, "h0", "/missing", local); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}

func TestUploadBinaryIsContentAddressed(t *testing.T) {
	p, servers := newTestPool(t, 1)
	servers[0].useRealFS()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "bb")
	bin := filepath.Join(t.TempDir(), "benchbed")
	writeFile(t, bin, []byte("#!/bin/sh\necho agent\n"), 0o755)
	dst, err := p.UploadBinary(ctx, "h0", bin, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(dst, dir+"/benchbed-") || len(dst) != len(dir+"/benchbed-")+24 {
		t.Fatalf("remote path %q", dst)
	}
	if got, _ := remoteRead(t, p, "h0", dst); got != "#!/bin/sh\necho agent\n" {
		t.Fatalf("content %q", got)
	}
	// Replace it behind benchbed's back: a second call in the run does not look.
	p.withSFTP(ctx, "h0", func(c *sftp.Client) error { return c.Remove(dst) })
	if again, err := p.UploadBinary(ctx, "h0", bin, dir); err != nil || again != dst {
		t.Fatalf("second upload: %q %v", again, err)
	}
	if _, ok := remoteRead(t, p, "h0", dst); ok {
		t.Fatal("the binary was sent twice in one run")
	}
	writeFile(t, bin, []byte("#!/bin/sh\necho agent v2\n"), 0o755)
	p2, _ := NewPool([]Config{})
	p2.eps, p2.order, p2.conns = p.eps, p.order, p.conns // same hosts, a new run
	dst2, err := p2.UploadBinary(ctx, "h0", bin, dir)
	if err != nil || dst2 == dst {
		t.Fatalf("new content must get a new name: %q %v", dst2, err)
	}
}

func TestUploadAll(t *testing.T) {
	p, _ := newTestPool(t, 1)
	files := []File{{Path: "/x", Content: []byte("1")}, {Path: "/missing/y", Content: []byte("2")}, {Path: "/z", Content: []byte("3")}}
	changes, err := p.UploadAll(context.Background(), "h0", files)
	if err == nil || !strings.Contains(err.Error(), "/missing/y") || strings.Contains(err.Error(), "/z") {
		t.Fatalf("err = %v, want only /missing/y failing", err)
	}
	if changes[0] != Written || changes[2] != Written {
		t.Fatalf("changes = %v", changes)
	}
	for _, f := range []string{"/x", "/z"} {
		if _, ok := remoteRead(t, p, "h0", f); !ok {
			t.Fatalf("%s not uploaded", f)
		}
	}
}
