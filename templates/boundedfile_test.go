package templates

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestReadRefusesDevicesDirectoriesAndHugeFiles(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("ok"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadBounded(small); err != nil || string(b) != "ok" {
		t.Fatalf("ReadBounded(small) = %q, %v", b, err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxFileSize+1); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/dev/zero", link, dir, big} {
		if _, err := ReadBounded(p); !errors.Is(err, ErrNotSmallFile) {
			t.Errorf("ReadBounded(%s) = %v, want ErrNotSmallFile", p, err)
		}
		if err := CheckBounded(p); !errors.Is(err, ErrNotSmallFile) {
			t.Errorf("CheckBounded(%s) = %v, want ErrNotSmallFile", p, err)
		}
	}
}
