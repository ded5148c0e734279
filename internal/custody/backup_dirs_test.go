package custody

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"benchbed/results/rundir"
)

// TestBackupOfAConfInAMissingDirectory: a conf whose directory does not
// exist (seed004's /srv/nginx on proxy1) is backed up as absent, its
// directories created; the sweep then writes the conf, and the restore
// removes the conf and the directories it created (with what the daemon
// left there), not those that were there. A marker planted in a directory
// of another owner removes nothing.
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
	b, err := TakeBackup(ctx, r, run, files, false)
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
	if _, err := TakeBackup(ctx, r, run, files, true); err != nil {
		t.Fatal(err)
	}
	if err := restoreFiles(ctx, r, b); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{conf, filepath.Join(root, "srv"), filepath.Join(root, "opt")} {
		if _, err := os.Lstat(gone); !os.IsNotExist(err) {
			t.Errorf("%s is left after the restore (%v)", gone, err)
		}
	}
	if _, err := os.Stat(root); err != nil {
		t.Fatalf("a directory that was there is removed: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(root, "*", "*", "*benchbed-sweep-orig*")); len(m) != 0 {
		t.Errorf("backups left: %v", m)
	}
}

// TestPlantedDirMarkerRemovesNothing: a created-directory marker that
// another user planted (in a directory others may write) is not trusted.
func TestPlantedDirMarkerRemovesNothing(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("SKIPPED: chown to another uid needs root")
	}
	r := lockShells(t, "h1")
	shared := filepath.Join(t.TempDir(), "shared")
	os.Mkdir(shared, 0o1777)
	os.Chmod(shared, 0o1777)
	precious := filepath.Join(shared, "precious")
	os.WriteFile(precious, []byte("keep\n"), 0o644)
	marker := filepath.Join(shared, createdDirMarker)
	os.WriteFile(marker, nil, 0o644)
	if err := os.Chown(marker, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	files := []rundir.Original{{Path: filepath.Join(shared, "x.conf"), Absent: true}}
	if _, err := r.Run(context.Background(), "h1", dropScript(files)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(precious); err != nil {
		t.Fatalf("a planted marker removed %s: %v", shared, err)
	}
}
