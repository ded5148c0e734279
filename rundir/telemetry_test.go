package rundir

import (
	"path/filepath"
	"testing"
	"time"
)

// TestTelemetryFile: a host's telemetry samples live in its cell's
// telemetry directory, the host's name made safe.
func TestTelemetryFile(t *testing.T) {
	r, err := NewRun(t.TempDir(), "tb", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.TelemetryFile("001-normal-w-r1", "stor/1")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(r.Dir, CellsDir, "001-normal-w-r1", TelemetryDir, SafeName("stor/1")+".jsonl"); p != want {
		t.Errorf("got %s, want %s", p, want)
	}
}
