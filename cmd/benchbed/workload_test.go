package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"benchbed/plan/proxylog/proxylogtest"
	"benchbed/plan/scenario"
	"benchbed/results/workload"
)

// logSecrets matches the generator's account and token, and any account.
var logSecrets = regexp.MustCompile(`secretacct|5ecre7|AUTH_`)

// writeLogs writes two proxies' synthetic logs, one gzip, and returns
// their paths.
func writeLogs(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i, gz := range []bool{false, true} {
		s := proxylogtest.Spec{Name: "p", Lines: 20000, Start: time.Date(2026, 12, 5, 0, 0, i, 0, time.UTC),
			Rates: []float64{100, 300}, PhaseSeconds: 20, Mix: map[string]float64{"GET": 70, "PUT": 15, "HEAD": 5, "DELETE": 10},
			SizeMin: 4096, SizeMax: 1 << 20, Objects: 2000, Zipf: 0.9, Containers: 4, SubEvery: 50,
			AuthEvery: 500, GarbleEvery: 997, Syslog: i == 0, Seed: uint64(i + 1)}
		data, err := io.ReadAll(s.Reader())
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "proxy"+string(rune('1'+i))+".log")
		if gz {
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			_, _ = zw.Write(data)
			_ = zw.Close()
			data, p = b.Bytes(), p+".gz"
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

func TestWorkloadFitTextJSONScenario(t *testing.T) {
	logs := writeLogs(t)
	out := filepath.Join(t.TempDir(), "fit.scenario")
	plot := filepath.Join(t.TempDir(), "sizes.svg")
	code, stdout, stderr := captureRun(t, append([]string{"workload", "fit", "--out", out, "--plot", plot}, logs...)...)
	if svg, err := os.ReadFile(plot); err != nil || !bytes.Contains(svg, []byte("<svg")) || !bytes.Contains(svg, []byte("PUT fitted")) {
		t.Errorf("plot: %v, %d bytes", err, len(svg))
	}
	if code != 0 || !strings.Contains(stdout, "mean rate") || !strings.Contains(stderr, "did not parse; the first: ") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, js, _ := captureRun(t, append([]string{"workload", "fit", "--json", "--names", "clear"}, logs...)...)
	var fit workload.Fit
	if err := json.Unmarshal([]byte(js), &fit); code != 0 || err != nil || len(fit.Ops) != 4 || fit.Popularity.Top == nil {
		t.Fatalf("exit %d, %v: %s", code, err, js)
	}
	if !strings.HasPrefix(fit.Popularity.Top[0].Name, "c") || strings.Contains(stdout, " c0/") {
		t.Errorf("clear names %q; hashed ones by default", fit.Popularity.Top[0].Name)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.ParseFile(out, data)
	if err != nil || s.Popularity == nil || s.RateProfile == nil || s.HeadShare == 0 {
		t.Fatalf("%v\n%s", err, data)
	}
	for name, text := range map[string]string{"text": stdout + stderr, "json": js, "scenario": string(data)} {
		if m := logSecrets.FindAllString(text, -1); m != nil {
			t.Errorf("%s holds account names or tokens %q", name, m)
		}
	}
}

func TestWorkloadFitRefusals(t *testing.T) {
	garbage := filepath.Join(t.TempDir(), "g.log")
	if err := os.WriteFile(garbage, []byte("not a log line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"workload", "fit", "/nonexistent.log"}, 2, "no such file"},
		{[]string{"workload", "fit", "--template", "{method} {bogus}", garbage}, 2, "unknown field {bogus}"},
		{[]string{"workload", "fit", "--names", "x", garbage}, 2, "want hashed or clear"},
		{[]string{"workload", "fit", "--plot", "x.jpg", garbage}, 2, "want a .svg, .png or .pdf"},
		{[]string{"workload", "fit", garbage}, 1, "no client request on an object"},
	} {
		code, _, stderr := captureRun(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, want %d saying %q:\n%s", c.args, code, c.code, c.want, stderr)
		}
	}
}

func TestLoadReplay(t *testing.T) {
	srv := nullSwift(t)
	logs := writeLogs(t)
	args := []string{"load", "--storage-url", srv.URL + "/v1/AUTH_t", "--token", "tok-secret", "--speed", "2000",
		"--initial", "skip", "--users", "4", "--replay", logs[0], "--replay", logs[1]}
	code, stdout, stderr := captureRun(t, args...)
	if code != 0 || !strings.Contains(stdout, "production p50") || !strings.Contains(stdout, "GET") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if m := logSecrets.FindAllString(stdout+stderr, -1); m != nil {
		t.Errorf("output holds account names or tokens %q", m)
	}
	code, _, stderr = captureRun(t, "load", "--storage-url", srv.URL, "--token", "t", "--replay", logs[0], "--scenario", seedScenario)
	if code != 2 || !strings.Contains(stderr, "give one") {
		t.Errorf("--scenario with --replay: exit %d\n%s", code, stderr)
	}
}
