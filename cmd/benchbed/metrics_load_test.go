package main

import (
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"benchbed/results"
	"benchbed/results/metrics/metricstest"
)

// streamScenario is a small mix: 20 initial 4 KiB files, GETs, PUTs and
// DELETEs.
const streamScenario = `{"name": "stream", "sizes": [{"name": "tiny", "size_min": 4096, "size_max": 4096}],
 "initial_files": {"tiny": 20}, "container_base": "stream", "container_count": 2,
 "crud_profile": [1, 4, 0, 1], "user_count": 4, "run_seconds": 3}`

// patientStream raises the stream's limits (streamLimits) to minutes for
// t: a receiver a loaded machine slows then still gets every batch, so
// that "0 dropped" and the figures read back never depend on its speed
// (the limits only bound a hang).
func patientStream(t *testing.T) {
	t.Helper()
	was := streamLimits
	streamLimits.probe, streamLimits.write, streamLimits.drain = 2*time.Minute, 2*time.Minute, 3*time.Minute
	t.Cleanup(func() { streamLimits = was })
}

// streamedLoad runs a `benchbed load` of streamScenario against an
// in-memory Swift with extra args, its stream's limits patient
// (patientStream), and returns its cell and stderr.
func streamedLoad(t *testing.T, extra ...string) (results.Cell, string) {
	t.Helper()
	patientStream(t)
	sw := newMemSwift(t)
	args := append([]string{"load", "--scenario", writeFile(t, "stream.scenario", streamScenario), "--auth-url", sw.URL + "/auth/v1.0",
		"--user", "test:tester", "--key", "testing", "--users", "4", "--warmup", "1s", "--duration", "3s", "--json"}, extra...)
	out, errOut, err := runCmd(t, "", args...)
	var c results.Cell
	if err != nil || json.Unmarshal([]byte(out), &c) != nil || c.Total.Count == 0 {
		t.Fatalf("load: %v\n%s\n%s", err, out, errOut)
	}
	return c, errOut
}

// within reports whether got is within 1 % of want.
func within(got, want float64) bool { return math.Abs(got-want) <= 0.01*math.Abs(want) }

// checkCell finds the cell's req/s and first- and last-byte p99 in the
// receiver's series selected by sel, within 1 %.
func checkCell(t *testing.T, r *metricstest.Receiver, sel string, c results.Cell) {
	t.Helper()
	q := func(name, extra string) string {
		return `last_over_time(` + name + `{` + sel + `,phase="run",op="all"` + extra + `}[1h])`
	}
	checks := []struct {
		query string
		want  float64
	}{
		{q("benchbed_phase_requests_per_second", ""), c.Total.ReqPerS},
		{q("benchbed_phase_requests", ""), float64(c.Total.Count)},
		{q("benchbed_phase_first_byte_seconds", `,quantile="0.99"`), c.Total.FirstByte.P99},
		{q("benchbed_phase_last_byte_seconds", `,quantile="0.99"`), c.Total.LastByte.P99},
	}
	for _, ck := range checks {
		if got := r.Value(t, ck.query); !within(got, ck.want) {
			t.Errorf("%s: %s = %g, summary says %g (not within 1 %%)", r.Name, ck.query, got, ck.want)
		} else {
			t.Logf("%s: %s = %g beside the summary's %g", r.Name, ck.query, got, ck.want)
		}
	}
}

// checkPhases wants the state series' phases in order: warm-up, run, idle.
func checkPhases(t *testing.T, r *metricstest.Receiver, sel string) {
	t.Helper()
	if got, want := r.Phases(t, sel), []string{"warmup", "run", "idle"}; !slices.Equal(got, want) {
		t.Errorf("%s: phases in time order %v, want %v", r.Name, got, want)
	}
}

// checkNoSecret wants no label of any benchbed series to hold the key or
// the token of the run.
func checkNoSecret(t *testing.T, r *metricstest.Receiver, secrets ...string) {
	t.Helper()
	all := r.Query(t, `{__name__=~"benchbed_.+"}`)
	if len(all) == 0 {
		t.Fatalf("%s: no benchbed series", r.Name)
	}
	for _, s := range all {
		for k, v := range s.Metric {
			for _, sec := range secrets {
				if strings.Contains(v, sec) {
					t.Errorf("%s: label %s=%q holds a secret", r.Name, k, v)
				}
			}
		}
	}
}

func TestLoadStreamsToPrometheusAndVictoriaMetrics(t *testing.T) {
	prom := metricstest.StartPrometheus(t)
	vm := metricstest.StartVictoria(t)
	c, errOut := streamedLoad(t, "--remote-write", prom.WriteURL(), "--remote-write", vm.WriteURL(), "--influx", vm.InfluxURL())
	for _, want := range []string{"remote write " + prom.WriteURL(), "remote write " + vm.WriteURL(), "influx " + vm.Base + "/write"} {
		if !regexp.MustCompile(regexp.QuoteMeta(want) + `: \d+ batches sent, 0 dropped`).MatchString(errOut) {
			t.Errorf("stderr does not report %q with nothing dropped:\n%s", want, errOut)
		}
	}
	run := `workload="stream"`
	checkCell(t, prom, run, c)
	prom.Settle(t, run)
	vm.Settle(t, run)
	// The closing note's query gives the cell's req/s (VictoriaMetrics also
	// holds the Influx copy).
	note := regexp.MustCompile(`each cell's req/s \(summary.json's req_per_s\): (\S+)`).FindStringSubmatch(errOut)
	if note == nil {
		t.Errorf("no query in the closing note:\n%s", errOut)
	} else {
		if got := prom.Value(t, note[1]); !within(got, c.Total.ReqPerS) {
			t.Errorf("the note's %s = %g, the cell's req/s %g", note[1], got, c.Total.ReqPerS)
		}
	}
	checkCell(t, vm, run+`,source=""`, c)
	checkCell(t, vm, run+`,source="influx"`, c)
	checkPhases(t, prom, run)
	checkPhases(t, vm, run+`,source=""`)
	checkNoSecret(t, prom, "testing", "tok")
	checkNoSecret(t, vm, "testing", "tok")
	checkDashboard(t, prom)
}

// checkDashboard runs every query of the shipped Grafana dashboard on the
// receiver (Query fails on one it refuses) and wants the requests' and
// latencies' panels to show the load.
func checkDashboard(t *testing.T, r *metricstest.Receiver) {
	t.Helper()
	for _, q := range metricstest.Dashboard(t, "../../docs/grafana/benchbed.json") {
		expr := strings.ReplaceAll(q.Expr, "$run", ".+")
		if strings.HasPrefix(expr, "label_values(") {
			continue // Grafana's, not PromQL
		}
		got := r.Query(t, "last_over_time(("+expr+")[1h:1s])")
		// A load has no fault and no probe: their shading stays empty.
		shows := (strings.Contains(expr, "benchbed_requests_per_second") || strings.Contains(expr, "_byte_seconds") ||
			strings.Contains(expr, "benchbed_state")) && !strings.Contains(expr, `phase="fault`) && !strings.Contains(expr, `phase="probe"`)
		if shows && len(got) == 0 {
			t.Errorf("%s: %s shows nothing of the load", q.Where, q.Expr)
		}
	}
}

func TestLoadWithAReceiverKilledMidRun(t *testing.T) {
	vm := metricstest.StartVictoria(t)
	// The probe passes; the first batch's write kills the receiver: it and every later one fail.
	front := metricstest.KillingProxy(t, vm)
	c, errOut := streamedLoad(t, "--remote-write", front+"/api/v1/write")
	if c.Status != results.StatusOK || c.Total.Errors != 0 {
		t.Errorf("the cell changed with its receiver gone: %+v", c)
	}
	m := regexp.MustCompile(`remote write \S+: (\d+) batches sent, (\d+) dropped`).FindStringSubmatch(errOut)
	if m == nil {
		t.Fatalf("no report of the stream:\n%s", errOut)
	}
	sent, _ := strconv.Atoi(m[1])
	dropped, _ := strconv.Atoi(m[2])
	if sent != 0 || dropped < 1 {
		t.Errorf("sent %d, dropped %d: want every batch dropped:\n%s", sent, dropped, errOut)
	}
}

func TestLoadRefusesAWrongMetricsURLBeforeItStarts(t *testing.T) {
	sw := newMemSwift(t)
	nf := httptest.NewServer(http.NotFoundHandler())
	defer nf.Close()
	_, _, err := runCmd(t, "", "load", "--scenario", writeFile(t, "stream.scenario", streamScenario), "--auth-url", sw.URL+"/auth/v1.0",
		"--user", "test:tester", "--key", "testing", "--duration", "1s", "--remote-write", nf.URL+"/api/v1/wrong")
	if err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("err = %v, want the probe's 404", err)
	}
	if sw.puts != 0 {
		t.Errorf("the load started (%d PUTs) although its metrics URL was wrong", sw.puts)
	}
}

func TestLoadStreamsToInfluxDB(t *testing.T) {
	ix := metricstest.StartInflux(t, "benchbed")
	c, errOut := streamedLoad(t, "--influx", ix.Base+"/write?db=benchbed")
	if !regexp.MustCompile(`influx \S+/write: \d+ batches sent, 0 dropped`).MatchString(errOut) {
		t.Errorf("stderr does not report the influx output with nothing dropped:\n%s", errOut)
	}
	run := []string{"workload", "stream", "phase", "run", "op", "all"}
	for _, ck := range []struct {
		field string
		tags  []string
		want  float64
	}{
		{"phase_requests_per_second", nil, c.Total.ReqPerS},
		{"phase_first_byte_seconds", []string{"quantile", "0.99"}, c.Total.FirstByte.P99},
		{"phase_last_byte_seconds", []string{"quantile", "0.99"}, c.Total.LastByte.P99},
	} {
		q := metricstest.InfluxLast(ck.field, append(run, ck.tags...)...)
		if got := ix.InfluxValue(t, "benchbed", q); !within(got, ck.want) {
			t.Errorf("influxdb: %s = %g, summary says %g", q, got, ck.want)
		} else {
			t.Logf("influxdb: %s = %g beside the summary's %g", q, got, ck.want)
		}
	}
}
