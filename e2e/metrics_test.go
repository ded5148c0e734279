package e2e

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"benchbed/results"
	"benchbed/results/metrics/metricstest"
)

// TestMetrics: a sweep of the lab's normal and servers_per_port=1 variants
// (an 8 s run after the 5 s warm-up each) streams to a real Prometheus
// (the testbed's metrics block) and a real VictoriaMetrics (--remote-write)
// at once, and to a second VictoriaMetrics killed at its first write after the probe. Each
// cell's req/s and first- and last-byte p99 come back from both within 1 %
// of summary.json, with the cell's phases in order (warmup, idle, run, idle), the
// hosts' telemetry, and no key in any label; the killed receiver changes
// no result (every cell ok) and its dropped batches are said.
func TestMetrics(t *testing.T) {
	lab := Lab(t)
	setUp(t, lab, lab.Testbed)
	prom := metricstest.StartPrometheus(t)
	vm := metricstest.StartVictoria(t)
	dead := metricstest.StartVictoria(t)
	front := metricstest.KillingProxy(t, dead)
	text := strings.Replace(labText(t, lab), `  duration          = "20s"`, `  duration          = "8s"`, 1)
	text += "\nmetrics {\n  remote_write = [\"" + prom.WriteURL() + "\"]\n}\n"
	dir := t.TempDir()
	tb := filepath.Join(dir, "metrics.hcl")
	must(t, os.WriteFile(tb, []byte(text), 0o644))
	scen, err := os.ReadFile(filepath.Join(filepath.Dir(lab.Testbed), "64K_get_lab.scenario"))
	must(t, err)
	must(t, os.WriteFile(filepath.Join(dir, "64K_get_lab.scenario"), scen, 0o644))
	out, errOut, err := lab.Benchbed(t, "sweep", tb, "--only", "normal", "--only", "servers_per_port=1", "--runs-dir", filepath.Join(dir, "runs"),
		"--remote-write", vm.WriteURL(), "--remote-write", front+"/api/v1/write")
	cells := sweepCells(t, out, err, errOut, 2)
	if err != nil {
		t.Fatalf("sweep: %v\n%s", err, lastLines(errOut, 30))
	}
	run := filepath.Base(regexp.MustCompile(`sweep: results in (\S+)`).FindStringSubmatch(errOut)[1])
	m := regexp.MustCompile(`remote write http://127\.0\.0\.1:\d+/api/v1/write: (\d+) batches sent, (\d+) dropped`).FindAllStringSubmatch(errOut, -1)
	if len(m) != 3 {
		t.Fatalf("want three outputs' counts in the closing lines:\n%s", lastLines(errOut, 10))
	}
	t.Logf("closing lines:\n%s", lastLines(errOut, 4))
	if d, _ := strconv.Atoi(m[2][2]); d == 0 {
		t.Errorf("the killed receiver's batches: %v, want some dropped", m[2])
	}
	for _, c := range cells {
		if c.Status != results.StatusOK {
			t.Errorf("cell %s: %s %s", c.ID, c.Status, c.Error)
		}
	}
	note := regexp.MustCompile(`each cell's req/s \(summary.json's req_per_s\): (\S+)`).FindStringSubmatch(errOut)
	if note == nil {
		t.Fatalf("no query in the closing note:\n%s", lastLines(errOut, 6))
	}
	for _, r := range []*metricstest.Receiver{prom, vm} {
		sel := `run="` + run + `"`
		r.Settle(t, sel)
		checkNote(t, r, note[1], cells)
		for _, c := range cells {
			checkCellSeries(t, r, sel+`,cell="`+c.ID+`"`, c)
		}
		if len(r.Query(t, `benchbed_host_cpu_busy_percent{`+sel+`}`)) == 0 {
			t.Errorf("%s: no host telemetry", r.Name)
		}
		for _, s := range r.Query(t, `{__name__=~"benchbed_.+",`+sel+`}`) {
			for k, v := range s.Metric {
				if strings.Contains(v, "lab-bench-key") {
					t.Errorf("%s: label %s=%q holds the key", r.Name, k, v)
				}
			}
		}
	}
}

// checkNote runs the closing note's query on r and finds each cell's
// req/s in its answer.
func checkNote(t *testing.T, r *metricstest.Receiver, q string, cells []results.Cell) {
	t.Helper()
	got := map[string]float64{}
	for _, s := range r.Query(t, q) {
		got[s.Metric["cell"]] = s.Values[0]
	}
	for _, c := range cells {
		if v, ok := got[c.ID]; !ok || math.Abs(v-c.Total.ReqPerS) > 0.01*c.Total.ReqPerS {
			t.Errorf("%s: the closing note's %s gives cell %s %v, summary.json %g", r.Name, q, c.ID, got, c.Total.ReqPerS)
		}
	}
	t.Logf("%s: %s: %v", r.Name, q, got)
}

// checkCellSeries finds cell c's req/s and p99s in r within 1 % of
// summary.json, and its phases in order.
func checkCellSeries(t *testing.T, r *metricstest.Receiver, sel string, c results.Cell) {
	t.Helper()
	q := func(name, extra string) string {
		return `last_over_time(` + name + `{` + sel + `,phase="run",op="all"` + extra + `}[1h])`
	}
	for _, ck := range []struct {
		query string
		want  float64
	}{
		{q("benchbed_phase_requests_per_second", ""), c.Total.ReqPerS},
		{q("benchbed_phase_first_byte_seconds", `,quantile="0.99"`), c.Total.FirstByte.P99},
		{q("benchbed_phase_last_byte_seconds", `,quantile="0.99"`), c.Total.LastByte.P99},
	} {
		got := r.Value(t, ck.query)
		if math.Abs(got-ck.want) > 0.01*ck.want {
			t.Errorf("%s: %s = %g, summary.json %g", r.Name, ck.query, got, ck.want)
		}
		t.Logf("%s: %s = %g beside summary.json's %g", r.Name, ck.query, got, ck.want)
	}
	// The run's agents start after the warm-up's are done: idle between.
	if got, want := r.Phases(t, sel), []string{"warmup", "idle", "run", "idle"}; !slices.Equal(got, want) {
		t.Errorf("%s: cell %s's phases %v, want %v", r.Name, c.ID, got, want)
	}
}
