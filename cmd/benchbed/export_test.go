package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"benchbed/results/metrics/metricstest"
	"benchbed/results/rundir"
	"benchbed/results/rundir/rundirtest"
)

// exportFixture writes the seed's two fault cells as a run directory.
func exportFixture(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "20261201T120000Z-faults")
	if err := os.Mkdir(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	if _, err := rundirtest.WriteFaultRun(dir, rundirtest.SeedFaultCells...); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestExportOpenMetricsBackfillsWithPromtool(t *testing.T) {
	dir := exportFixture(t)
	file := filepath.Join(t.TempDir(), "run.om")
	_, errOut, err := runCmd(t, "", "export", dir, "--openmetrics", file)
	if err != nil || !strings.Contains(errOut, "exported 2 cells") {
		t.Fatalf("export: %v\n%s", err, errOut)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// Each fault window's last count of each cell is its summary's phase's.
	rr, err := rundirReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rr.Summary.Cells {
		for _, ph := range c.Fault.Phases {
			prefix := `benchbed_phase_requests{cell="` + c.ID + `",op="all",phase="fault_` + ph.Name + `",`
			var last string
			for _, line := range strings.Split(string(b), "\n") {
				if strings.HasPrefix(line, prefix) {
					last = line
				}
			}
			f := strings.Fields(last)
			if len(f) != 3 || f[1] != strconv.FormatInt(ph.Total.Count, 10)+".0" {
				t.Errorf("cell %s, %s: last count line %q, want %d", c.ID, ph.Name, last, ph.Total.Count)
			}
		}
	}
	if !strings.HasSuffix(string(b), "# EOF\n") {
		t.Errorf("no # EOF at the file's end")
	}
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("SKIP: promtool is not installed (Debian package prometheus, scripts/deps.sh): the file's backfill is untested")
	}
	out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", file, t.TempDir()).CombinedOutput()
	if err != nil {
		t.Fatalf("promtool refused the file: %v\n%s", err, out)
	}
}

func TestExportToVictoriaMetrics(t *testing.T) {
	vm := metricstest.StartVictoria(t)
	dir := exportFixture(t)
	_, errOut, err := runCmd(t, "", "export", dir, "--to", vm.WriteURL(), "--influx", vm.InfluxURL())
	if err != nil || !strings.Contains(errOut, "exported 2 cells") {
		t.Fatalf("export: %v\n%s", err, errOut)
	}
	rr, err := rundirReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 12, 1, 0, 0, time.UTC) // after the fixture's 30 s runs
	for _, c := range rr.Summary.Cells {
		for _, ph := range c.Fault.Phases {
			for _, src := range []string{`source=""`, `source="influx"`} {
				sel := `cell="` + c.ID + `",op="all",phase="fault_` + ph.Name + `",` + src
				var got []metricstest.Series
				for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(time.Second) {
					got = vm.QueryAt(t, `last_over_time(benchbed_phase_requests_per_second{`+sel+`}[1h])`, at)
					if len(got) == 1 && within(got[0].Values[0], ph.Total.ReqPerS) {
						break // VictoriaMetrics makes what it took searchable a little later
					}
				}
				if len(got) != 1 || !within(got[0].Values[0], ph.Total.ReqPerS) {
					t.Errorf("%s: req/s %+v, summary's phase %g", sel, got, ph.Total.ReqPerS)
				}
				p99 := vm.QueryAt(t, `last_over_time(benchbed_phase_last_byte_seconds{`+sel+`,quantile="0.99"}[1h])`, at)
				if len(p99) != 1 || !within(p99[0].Values[0], ph.Total.LastByte.P99) {
					t.Errorf("%s: p99 %+v, summary's phase %g", sel, p99, ph.Total.LastByte.P99)
				}
			}
		}
	}
}

// rundirReadRun is rundir.ReadRun.
var rundirReadRun = rundir.ReadRun
