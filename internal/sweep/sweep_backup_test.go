package sweep

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchbed/internal/custody"
	"benchbed/internal/labtest"
	"benchbed/internal/sweep/summary"
	"benchbed/remote"
	"benchbed/results/rundir"
)

// TestBackupFailureIsOneLine: a backup script that fails reads, on the
// terminal and in the journal, as one line naming host and cause (the file);
// the whole script and its output go to the run directory's summary.ErrorLog.
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
	_, err = custody.TakeBackup(context.Background(), r, run, map[string][]string{"proxy1": {conf}}, false)
	if err == nil {
		t.Fatal("backup below a file succeeded")
	}
	// The fan-out's header line, then one line for the host.
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "proxy1: backup: ") || !strings.Contains(lines[1], blocker) ||
		strings.Contains(err.Error(), "if [") {
		t.Fatalf("want one line naming host, step and file, without the script: %q", err)
	}
	s := &Sweeper{inputs: inputs{run: run, tb: labtest.LabTestbed(t)}}
	s.failedStep("")("backup", "", err)
	log, rerr := os.ReadFile(filepath.Join(run.Dir, summary.ErrorLog))
	if rerr != nil || !strings.Contains(string(log), "if [ ! -e ") || !strings.Contains(string(log), "step backup failed") {
		t.Fatalf("%s lacks the script: %v\n%s", summary.ErrorLog, rerr, log)
	}
	if len(remote.ExitErrors(err)) != 1 {
		t.Fatalf("the backup's error is not an ExitError: %#v", err)
	}
}
