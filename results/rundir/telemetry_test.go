package rundir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchbed/results"
	"benchbed/results/telemetry"
)

// TestReadTelemetry reads a cell's hosts' samples in its summary's host
// order, and names the file and sample of a broken line.
func TestReadTelemetry(t *testing.T) {
	run, err := NewRun(t.TempDir(), "lab", time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	rr := &RunResults{Dir: run.Dir}
	c := &results.Cell{ID: "001-normal-64K_get-r1"}
	if hosts, err := rr.ReadTelemetry(c); hosts != nil || err != nil {
		t.Errorf("a cell without telemetry: %v, %v", hosts, err)
	}
	dir, err := run.CellDir(c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, TelemetryDir), 0o750); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"proxy1", "stor1"} {
		line := `{"t":"2026-12-01T12:00:01Z","phase":"run","host":"` + h + `","cpu":{"busy_pct":41.2}}` + "\n"
		p, err := run.TelemetryFile(c.ID, h)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(line+line), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	c.Telemetry = &telemetry.CellSummary{Hosts: []telemetry.HostSummary{{Host: "stor1"}, {Host: "proxy1"}}}
	hosts, err := rr.ReadTelemetry(c)
	if err != nil || len(hosts) != 2 || hosts[0].Host != "stor1" || hosts[1].Host != "proxy1" ||
		len(hosts[0].Samples) != 2 || hosts[0].Samples[1].CPU.Busy != 41.2 {
		t.Errorf("hosts %+v, %v: want stor1 then proxy1 (the summary's order), two samples each", hosts, err)
	}
	p, err := run.TelemetryFile(c.ID, "proxy1")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("{}\n{broken\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := rr.ReadTelemetry(c); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("err %v, want one naming %s", err, p)
	}
}

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
