// Package metricstest starts real metrics receivers for tests on
// loopback, each with its own temporary storage: Debian's prometheus
// (remote-write receiver on) and victoria-metrics, and queries them back
// through their HTTP APIs. A test whose receiver is not installed skips
// loudly (scripts/deps.sh installs both).
package metricstest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Receiver is a running receiver.
type Receiver struct {
	Name string // "prometheus" or "victoria-metrics"
	Base string // http://127.0.0.1:PORT
	cmd  *exec.Cmd
	once sync.Once
	log  bytes.Buffer
}

// WriteURL is its remote write 1.0 endpoint.
func (r *Receiver) WriteURL() string { return r.Base + "/api/v1/write" }

// InfluxURL is its line-protocol endpoint (VictoriaMetrics' only), every
// series given the label source=influx so that a test tells them apart.
func (r *Receiver) InfluxURL() string {
	return r.Base + "/write?db=benchbed&extra_label=source%3Dinflux"
}

// StartPrometheus starts /usr/bin/prometheus with
// --web.enable-remote-write-receiver on a free loopback port; it is
// stopped at the test's end.
func StartPrometheus(t testing.TB) *Receiver {
	t.Helper()
	bin := need(t, "prometheus")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte("global:\n  scrape_interval: 1m\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	return start(t, "prometheus", addr, "/-/ready", bin, "--config.file="+cfg,
		"--storage.tsdb.path="+filepath.Join(dir, "data"), "--web.listen-address="+addr,
		"--web.enable-remote-write-receiver", "--log.level=warn")
}

// StartVictoria starts /usr/bin/victoria-metrics on a free loopback port,
// its queries answering up to now (no latency offset, no cache).
func StartVictoria(t testing.TB) *Receiver {
	t.Helper()
	bin := need(t, "victoria-metrics")
	addr := freeAddr(t)
	return start(t, "victoria-metrics", addr, "/health", bin, "-storageDataPath="+t.TempDir(),
		"-httpListenAddr="+addr, "-search.latencyOffset=0s", "-search.disableCache", "-loggerLevel=ERROR")
}

// need returns the receiver's binary or skips the test loudly.
func need(t testing.TB, name string) string {
	t.Helper()
	bin, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("SKIP: %s is not installed (Debian package %s, scripts/deps.sh): no real receiver to stream to", name, name)
	}
	return bin
}

// freeAddr returns a free 127.0.0.1 port's address.
func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// start runs the receiver and waits until its ready path answers 2xx.
func start(t testing.TB, name, addr, ready, bin string, args ...string) *Receiver {
	t.Helper()
	r := &Receiver{Name: name, Base: "http://" + addr}
	r.cmd = exec.Command(bin, args...)
	r.cmd.Stdout, r.cmd.Stderr = &r.log, &r.log
	// A test binary killed (its timeout) takes the receiver with it.
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := r.cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	t.Cleanup(r.Kill)
	deadline := time.Now().Add(2 * time.Minute) // a bound on a hung start, not a measurement
	for {
		resp, err := http.Get(r.Base + ready)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode/100 == 2 {
				return r
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not become ready at %s: %v\n%s", name, r.Base, err, r.log.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Kill stops the receiver (its process, by its id) and waits for it.
func (r *Receiver) Kill() {
	r.once.Do(func() {
		_ = r.cmd.Process.Kill()
		_ = r.cmd.Wait()
	})
}

// Flush makes what VictoriaMetrics received searchable at once (Prometheus
// needs nothing).
func (r *Receiver) Flush(t testing.TB) {
	t.Helper()
	if r.Name != "victoria-metrics" {
		return
	}
	resp, err := http.Get(r.Base + "/internal/force_flush")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}

// Series is one series of a query's answer: its labels (__name__
// included) and values with their times.
type Series struct {
	Metric map[string]string
	Times  []time.Time
	Values []float64
}

// Query runs an instant PromQL (MetricsQL) query at now through
// /api/v1/query: a vector's series have one value, a matrix's (a range
// selector) all of theirs.
func (r *Receiver) Query(t testing.TB, q string) []Series {
	t.Helper()
	return r.QueryAt(t, q, time.Now().Add(time.Second))
}

// QueryAt is Query at time at.
func (r *Receiver) QueryAt(t testing.TB, q string, at time.Time) []Series {
	t.Helper()
	r.Flush(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	u := r.Base + "/api/v1/query?" + url.Values{"query": {q}, "time": {strconv.FormatInt(at.Unix(), 10)}}.Encode()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s: %s: %v", r.Name, q, err)
	}
	defer resp.Body.Close()
	var body struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			Result []struct {
				Metric map[string]string `json:"metric"`
				Value  []any             `json:"value"`
				Values [][]any           `json:"values"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.Status != "success" {
		t.Fatalf("%s: %s: %v %s %s", r.Name, q, err, body.Status, body.Error)
	}
	var out []Series
	for _, res := range body.Data.Result {
		s := Series{Metric: res.Metric}
		vals := res.Values
		if res.Value != nil {
			vals = [][]any{res.Value}
		}
		for _, v := range vals {
			ts, f, err := sample(v)
			if err != nil {
				t.Fatalf("%s: %s: %v", r.Name, q, err)
			}
			s.Times, s.Values = append(s.Times, ts), append(s.Values, f)
		}
		out = append(out, s)
	}
	return out
}

// sample reads one [time, "value"] pair.
func sample(v []any) (time.Time, float64, error) {
	if len(v) != 2 {
		return time.Time{}, 0, fmt.Errorf("sample %v", v)
	}
	ts, ok := v[0].(float64)
	s, ok2 := v[1].(string)
	if !ok || !ok2 {
		return time.Time{}, 0, fmt.Errorf("sample %v", v)
	}
	f, err := strconv.ParseFloat(s, 64)
	return time.UnixMilli(int64(ts * 1000)), f, err
}

// Value runs q and wants exactly one series with one value.
func (r *Receiver) Value(t testing.TB, q string) float64 {
	t.Helper()
	s := r.Query(t, q)
	if len(s) != 1 || len(s[0].Values) != 1 {
		t.Fatalf("%s: %s: want one value, got %+v", r.Name, q, s)
	}
	return s[0].Values[0]
}

// Settle waits until the receiver holds the end of a stream selected by
// sel (its idle state) and its count of benchbed_phase_requests samples stops changing
// between two looks a second apart (VictoriaMetrics makes what it took
// searchable a little later). The two minutes it may take bound a hung
// receiver; no figure depends on them.
func (r *Receiver) Settle(t testing.TB, sel string) {
	t.Helper()
	count := `sum(count_over_time(benchbed_phase_requests{` + sel + `}[1h]))`
	last := -1.0
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(time.Second) {
		if len(r.Query(t, `benchbed_state{`+sel+`,phase="idle"}[1h]`)) == 0 {
			continue
		}
		s := r.Query(t, count)
		if len(s) == 1 && s[0].Values[0] == last {
			return
		}
		if len(s) == 1 {
			last = s[0].Values[0]
		}
	}
	t.Fatalf("%s: the stream's samples (%s) did not settle", r.Name, sel)
}

// Phases is the timeline of the phases the benchbed_state series selected
// by sel went through: every sample in time order, a phase repeated by
// the next sample told once.
func (r *Receiver) Phases(t testing.TB, sel string) []string {
	t.Helper()
	type at struct {
		t     time.Time
		phase string
	}
	var samples []at
	for _, s := range r.Query(t, `benchbed_state{`+sel+`}[1h]`) {
		for _, ts := range s.Times {
			samples = append(samples, at{ts, s.Metric["phase"]})
		}
	}
	sort.SliceStable(samples, func(i, j int) bool { return samples[i].t.Before(samples[j].t) })
	var out []string
	for _, s := range samples {
		if len(out) == 0 || out[len(out)-1] != s.phase {
			out = append(out, s.phase)
		}
	}
	return out
}
