package custody

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"benchbed/results/rundir"
)

// TestRestoreLeavesAFileThatHoldsItsOriginal: a file whose content, mode
// and owner are its original's is not copied again (its inode and ctime
// stay, which the reload's check of what changed since a server started
// reads); one with its original content but another mode is put back.
func TestRestoreLeavesAFileThatHoldsItsOriginal(t *testing.T) {
	r := lockShells(t, "h1")
	dir := t.TempDir()
	same, mode := filepath.Join(dir, "proxy-server.conf"), filepath.Join(dir, "object-server.conf")
	for _, f := range []string{same, mode} {
		if err := os.WriteFile(f, []byte("workers = 1\n"), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	run, err := rundir.NewRun(t.TempDir(), "tb", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	b, err := TakeBackup(ctx, r, run, map[string][]string{"h1": {same, mode}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(mode, 0o600); err != nil {
		t.Fatal(err)
	}
	ino := func(p string) uint64 {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return st.Sys().(*syscall.Stat_t).Ino
	}
	before := ino(same)
	if _, err := restoreHostFiles(ctx, r, "h1", b["h1"]); err != nil {
		t.Fatal(err)
	}
	if got := ino(same); got != before {
		t.Errorf("%s holds its original but was copied again (inode %d -> %d)", same, before, got)
	}
	if st, _ := os.Stat(mode); st.Mode().Perm() != 0o640 {
		t.Errorf("%s: mode %v after the restore, want the original 0640", mode, st.Mode().Perm())
	}
}
