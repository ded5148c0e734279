package sweep

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchbed/internal/labtest"
	"benchbed/remote"
	"benchbed/results/rundir"
)

// TestBackupOfAConfInAMissingDirectory: a conf whose directory does not
// exist (seed004's /srv/nginx on proxy1) is backed up as absent, its
// directories created; the sweep then writes the conf, and the restore
// removes the conf and the directories it created, not those that were
// there. A created directory something else now uses is kept.
func TestBackupOfAConfInAMissingDirectory(t *testing.T) {
	r := lockShells(t, "h1")
	root := t.TempDir()
	conf := filepath.Join(root, "srv", "nginx", "nginx.conf")
	kept := filepath.Join(root, "opt", "d", "d.conf")
	run, err := rundir.NewRun(t.TempDir(), "tb", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	files := map[string][]string{"h1": {conf, kept}}
	b, err := takeBackup(ctx, r, run, files, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(b["h1"]) != 2 || !b["h1"][0].Absent || !b["h1"][1].Absent || b["h1"][0].Path != conf {
		t.Fatalf("backup %+v, want both absent", b)
	}
	if _, err := os.Stat(filepath.Join(root, "srv", "nginx", createdDirMarker)); err != nil {
		t.Fatalf("the conf's directory is not created and marked: %v", err)
	}
	// The sweep writes the confs; a daemon leaves a file beside one.
	os.WriteFile(conf, []byte("events {}\n"), 0o644)
	os.WriteFile(kept, []byte("x\n"), 0o644)
	os.WriteFile(filepath.Join(root, "opt", "d", "d.pid"), []byte("1\n"), 0o644)
	// A resumed sweep's backup keeps the record.
	if _, err := takeBackup(ctx, r, run, files, true); err != nil {
		t.Fatal(err)
	}
	if err := restoreFiles(ctx, r, b); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{conf, filepath.Join(root, "srv"), kept} {
		if _, err := os.Lstat(gone); !os.IsNotExist(err) {
			t.Errorf("%s is left after the restore (%v)", gone, err)
		}
	}
	if _, err := os.Stat(root); err != nil {
		t.Fatalf("a directory that was there is removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "opt", "d", createdDirMarker)); err != nil {
		t.Errorf("a created directory still in use lost its marker: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(root, "*", "*", "*benchbed-sweep-orig*")); len(m) != 0 {
		t.Errorf("backups left: %v", m)
	}
}

// TestBackupFailureIsOneLine: a backup script that fails reads, on the
// terminal and in the journal, as one line naming host and cause (the file);
// the whole script and its output go to the run directory's ErrorLog.
func TestBackupFailureIsOneLine(t *testing.T) {
	r := labtest.NewShell(t, "proxy1")
	root := t.TempDir()
	blocker := filepath.Join(root, "srv")
	os.WriteFile(blocker, []byte("a file where a directory must be\n"), 0o644)
	conf := filepath.Join(blocker, "nginx", "nginx.conf")
	run, err := rundir.NewRun(t.TempDir(), "tb", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	_, err = takeBackup(context.Background(), r, run, map[string][]string{"proxy1": {conf}}, false)
	if err == nil {
		t.Fatal("backup below a file succeeded")
	}
	// The fan-out's header line, then one line for the host.
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "proxy1: backup: ") || !strings.Contains(lines[1], blocker) ||
		strings.Contains(err.Error(), "if [") {
		t.Fatalf("want one line naming host, step and file, without the script: %q", err)
	}
	s := &Sweeper{run: run, tb: labtest.LabTestbed(t)}
	s.failedStep("")("backup", "", err)
	log, rerr := os.ReadFile(filepath.Join(run.Dir, ErrorLog))
	if rerr != nil || !strings.Contains(string(log), "if [ ! -e ") || !strings.Contains(string(log), "step backup failed") {
		t.Fatalf("%s lacks the script: %v\n%s", ErrorLog, rerr, log)
	}
	if len(remote.ExitErrors(err)) != 1 {
		t.Fatalf("the backup's error is not an ExitError: %#v", err)
	}
}
