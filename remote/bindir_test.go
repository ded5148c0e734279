package remote

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// binHost is a pool of one host whose SFTP serves this machine's
// filesystem, a local binary to place, and a base directory for the test.
func binHost(t *testing.T) (*Pool, string, string) {
	t.Helper()
	p, servers := newTestPool(t, 1)
	servers[0].useRealFS()
	base := t.TempDir()
	bin := filepath.Join(t.TempDir(), "benchbed")
	writeFile(t, bin, []byte("#!/bin/sh\necho the real agent\n"), 0o755)
	return p, base, bin
}

func mustPerm(t *testing.T, p string, want os.FileMode) {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != want || !fi.Mode().IsRegular() && !fi.IsDir() {
		t.Fatalf("%s: mode %v, want %04o (not a symlink)", p, fi.Mode(), want)
	}
}

// TestUploadBinaryPrivateDir: the directory is created 0700, and an
// existing one of the same owner is made 0700.
func TestUploadBinaryPrivateDir(t *testing.T) {
	p, base, bin := binHost(t)
	dir := filepath.Join(base, "fresh")
	dst, err := p.UploadBinary(context.Background(), "h0", bin, dir)
	if err != nil {
		t.Fatal(err)
	}
	mustPerm(t, dir, 0o700)
	mustPerm(t, dst, 0o755)
	open := filepath.Join(base, "open")
	if err := os.Mkdir(open, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := p.UploadBinary(context.Background(), "h0", bin, open); err != nil {
		t.Fatal(err)
	}
	mustPerm(t, open, 0o700)
}

// TestUploadBinaryReplacesPlanted: a file of the right name and size but
// other content, or a symlink, is not run: it is replaced, and a symlink's
// target is left alone.
func TestUploadBinaryReplacesPlanted(t *testing.T) {
	want := "#!/bin/sh\necho the real agent\n"
	for _, plant := range []string{"file", "symlink"} {
		t.Run(plant, func(t *testing.T) {
			p, base, bin := binHost(t)
			dir := filepath.Join(base, "bb")
			sum, err := p.fileHash(bin)
			if err != nil {
				t.Fatal(err)
			}
			dst := filepath.Join(dir, "benchbed-"+sum[:24])
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			evil := strings.Repeat("x", len(want)) // same size: the old check reused it
			target := filepath.Join(base, "elsewhere")
			writeFile(t, target, []byte(evil), 0o755)
			if plant == "file" {
				writeFile(t, dst, []byte(evil), 0o755)
			} else if err := os.Symlink(target, dst); err != nil {
				t.Fatal(err)
			}
			got, err := p.UploadBinary(context.Background(), "h0", bin, dir)
			if err != nil || got != dst {
				t.Fatalf("upload: %q %v", got, err)
			}
			mustPerm(t, dst, 0o755)
			if b, _ := os.ReadFile(dst); string(b) != want {
				t.Fatalf("planted %s reused: %q", plant, b)
			}
			if b, _ := os.ReadFile(target); string(b) != evil {
				t.Fatalf("symlink target written: %q", b)
			}
		})
	}
}

// TestUploadBinaryRefusesUnsafeDir: a directory that is a symlink, another
// user's, or below a parent others may write is refused, naming host and
// path, and nothing is written there.
func TestUploadBinaryRefusesUnsafeDir(t *testing.T) {
	cases := map[string]func(t *testing.T, base, dir string){
		"symlink": func(t *testing.T, base, dir string) {
			os.Mkdir(filepath.Join(base, "real"), 0o700)
			if err := os.Symlink(filepath.Join(base, "real"), dir); err != nil {
				t.Fatal(err)
			}
		},
		"other owner": func(t *testing.T, base, dir string) {
			if os.Geteuid() != 0 {
				t.Skip("SKIPPED: chown to another uid needs root")
			}
			os.Mkdir(dir, 0o777)
			if err := os.Chown(dir, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		},
		"open parent": func(t *testing.T, base, dir string) {
			if err := os.Chmod(base, 0o777); err != nil {
				t.Fatal(err)
			}
		},
		"not a directory": func(t *testing.T, base, dir string) {
			writeFile(t, dir, []byte("x"), 0o644)
		},
	}
	for name, plant := range cases {
		t.Run(name, func(t *testing.T) {
			p, base, bin := binHost(t)
			dir := filepath.Join(base, "bb")
			plant(t, base, dir)
			_, err := p.UploadBinary(context.Background(), "h0", bin, dir)
			var ue *UnsafePathError
			if !errors.As(err, &ue) {
				t.Fatalf("want an UnsafePathError, got %v", err)
			}
			if msg := err.Error(); !strings.Contains(msg, "h0") || !strings.Contains(msg, base) {
				t.Fatalf("error names no host or path: %s", msg)
			}
			if m, _ := filepath.Glob(filepath.Join(base, "*", "benchbed-*")); len(m) != 0 {
				t.Fatalf("written anyway: %v", m)
			}
		})
	}
}
