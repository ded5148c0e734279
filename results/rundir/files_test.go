package rundir

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"benchbed/results"
)

// TestFilesRoundTrip writes what a sweep keeps and reads it back.
func TestFilesRoundTrip(t *testing.T) {
	started := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	run, err := NewRun(t.TempDir(), "lab", started)
	if err != nil {
		t.Fatal(err)
	}
	si := SweepInfo{Testbed: "/x/lab.hcl", Name: "lab", Started: started, Files: []string{"x/lab.hcl", "x/parts/netns.hcl"}}
	if err := run.WriteSweepInfo(si); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadSweepInfo(run.Dir); err != nil || !reflect.DeepEqual(*got, si) {
		t.Errorf("sweep info %+v, %v", got, err)
	}
	if b, err := run.ReadBackup(); b != nil || err != nil {
		t.Errorf("no backup yet: %v, %v", b, err)
	}
	b := Backup{"stor1": {{Path: "/etc/swift/swift.conf", SHA256: strings.Repeat("a", 64)}, {Path: "/etc/x", Absent: true}}}
	if err := run.WriteBackup(b); err != nil {
		t.Fatal(err)
	}
	if got, err := run.ReadBackup(); err != nil || !reflect.DeepEqual(got, b) {
		t.Errorf("backup %v, %v", got, err)
	}
	for _, h := range []string{"stor2", "stor1"} {
		if err := run.WriteEnv(h, []byte("## kernel\n"+h+"\n")); err != nil {
			t.Fatal(err)
		}
	}
	if env, err := ReadEnv(run.Dir); err != nil || len(env) != 2 || env[0].Host != "stor1" || env[1].Text != "## kernel\nstor2\n" {
		t.Errorf("env %+v, %v", env, err)
	}
	c := results.Cell{ID: "001-a-w-r1", Variant: "a", Workload: "w", Repeat: 1, Status: results.StatusOK}
	if err := run.WriteCell(c.ID, &c); err != nil {
		t.Fatal(err)
	}
	if got, err := run.ReadCell(c.ID); err != nil || got.ID != c.ID || got.Status != c.Status {
		t.Errorf("cell %+v, %v", got, err)
	}
	if err := run.WriteCellError(c.ID, "run: boom"); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(run.Dir, CellsDir, c.ID, ErrorFile)); err != nil || string(got) != "run: boom\n" {
		t.Errorf("error.txt %q, %v", got, err)
	}
	if err := run.WriteSummary(&results.Summary{Run: run.ID, Testbed: "lab", Cells: []results.Cell{c}}); err != nil {
		t.Fatal(err)
	}
	rr, err := ReadRun(run.Dir)
	if err != nil || rr.Partial || len(rr.Summary.Cells) != 1 {
		t.Fatalf("read back %+v, %v", rr, err)
	}
	if _, err := rr.ReadStreams(&rr.Summary.Cells[0]); !errors.Is(err, ErrNoStreams) ||
		!strings.Contains(err.Error(), filepath.Join(run.Dir, CellsDir, c.ID, AgentsDir)) {
		t.Errorf("a cell without streams: %v", err)
	}
}

// TestSweepInfoMissing names the directory that is no sweep's run.
func TestSweepInfoMissing(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadSweepInfo(dir); err == nil || !strings.Contains(err.Error(), dir+": not a sweep's run directory") {
		t.Fatalf("got %v", err)
	}
}
