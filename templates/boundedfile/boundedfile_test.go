package boundedfile

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
	if b, err := Read(small); err != nil || string(b) != "ok" {
		t.Fatalf("Read(small) = %q, %v", b, err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxSize+1); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/dev/zero", link, dir, big} {
		if _, err := Read(p); !errors.Is(err, ErrNotSmallFile) {
			t.Errorf("Read(%s) = %v, want ErrNotSmallFile", p, err)
		}
		if err := Check(p); !errors.Is(err, ErrNotSmallFile) {
			t.Errorf("Check(%s) = %v, want ErrNotSmallFile", p, err)
		}
	}
}
