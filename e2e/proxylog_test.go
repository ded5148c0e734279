package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"benchbed/load"
	"benchbed/load/prefill"
	"benchbed/plan/proxylog"
	"benchbed/plan/scenario"
	"benchbed/results/workload"
)

// accessLog is where the syslog receiver on proxy1 writes the proxy's
// access lines (proxy1's private /var/log/swift).
const accessLog = "/var/log/swift/e2e-proxy-access.log"

// syslogConf is rsyslog's conf for proxy1: Swift's logger, without
// /dev/log, sends to UDP localhost:514 of proxy1's network namespace;
// proxy-server's lines go to accessLog with the traditional prefix.
const syslogConf = `module(load="imudp")
input(type="imudp" address="127.0.0.1" port="514")
template(name="plain" type="string" string="%TIMESTAMP% %HOSTNAME% %syslogtag%%msg%\n")
if $programname == 'proxy-server' then { action(type="omfile" file="` + accessLog + `" template="plain") stop }
`

// mixedScenario is the workload the round trip defines: three size
// classes, GET, PUT, DELETE and HEAD, a Zipf popularity and a rate that
// doubles for its middle third: 2,400 requests in 30 s (of the netns
// e2e's 12 minutes, the round trip's three runs take about a minute and a
// half).
const mixedScenario = `{"name": "e2e-mixed", "sizes": [
  {"name": "s", "size_min": 1024, "size_max": 2048},
  {"name": "m", "size_min": 8192, "size_max": 16384},
  {"name": "l", "size_min": 65536, "size_max": 131072}],
 "initial_files": {"s": 100, "m": 100, "l": 100}, "crud_profile": [30, 50, 0, 10],
 "head_share": 0.1, "popularity": {"zipf": 1}, "run_seconds": 30, "container_count": 4,
 "container_base": "e2eplog", "rate_profile": {"interval": 10, "rates": [60, 120, 60]}}`

// TestProxyLogRoundTrip is issue 40's "done when" on the lab: a mixed
// workload through the proxy, its access log fitted (mix within 2 points,
// PUT size quantiles within 10 %, mean rate within 5 % of what ran); the
// fitted scenario run again and its log's fit within the same bounds of
// the first; the log replayed, issuing the logged operations.
func TestProxyLogRoundTrip(t *testing.T) {
	lab := Lab(t)
	setUp(t, lab, lab.Testbed)
	startSyslog(t, lab)
	dir := t.TempDir()
	s, err := scenario.Parse([]byte(mixedScenario))
	if err != nil {
		t.Fatal(err)
	}
	from, to, ran := runMeasured(t, s)
	log1 := fetchLog(t, lab, from, to, filepath.Join(dir, "run1.log"))
	fit1, fitted := fitLog(t, lab, log1, filepath.Join(dir, "fitted.scenario"))
	checkAgainstRun(t, fit1, ran, s, to.Sub(from))

	s2, err := scenario.ParseFile(fitted, mustRead(t, fitted))
	if err != nil {
		t.Fatal(err)
	}
	s2.ContainerBase = "e2eplog2"
	from, to, _ = runMeasured(t, s2)
	fit2, _ := fitLog(t, lab, fetchLog(t, lab, from, to, filepath.Join(dir, "run2.log")), "")
	agree(t, "fitted scenario's run", fit2, fit1)

	from = time.Now()
	out, errOut, err := lab.Benchbed(t, "load", "--replay", log1, "--speed", "2", "--users", "32",
		"--auth-url", loadAuthURL, "--user", loadUser, "--key", loadKey)
	if err != nil {
		t.Fatalf("replay: %v\n%s\n%s", err, out, errOut)
	}
	t.Logf("replay:\n%s", out)
	fit3, _ := fitLog(t, lab, fetchLog(t, lab, from, time.Now(), filepath.Join(dir, "replay.log")), "")
	for _, op := range fit1.Ops {
		got := count(fit3, op.Method)
		if got != op.Count && (op.Method != "PUT" || got < op.Count) { // the prefill's PUTs come on top
			t.Errorf("replay issued %d %s, the log has %d", got, op.Method, op.Count)
		}
	}
}

// startSyslog runs rsyslogd in proxy1's namespace, writing accessLog,
// and stops it at the test's end.
func startSyslog(t *testing.T, lab *Env) {
	t.Helper()
	cmd := "set -e; cat > /var/tmp/e2e-rsyslog.conf <<'EOF'\n" + syslogConf + "EOF\n" +
		": > " + accessLog + "; rsyslogd -f /var/tmp/e2e-rsyslog.conf -i /var/tmp/e2e-rsyslog.pid"
	if out, err := lab.SSH(t, "proxy1", cmd); err != nil {
		t.Fatalf("rsyslogd on proxy1: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		_, _ = lab.SSH(t, "proxy1", "kill $(cat /var/tmp/e2e-rsyslog.pid); rm -f /var/tmp/e2e-rsyslog.* "+accessLog)
	})
}

// runMeasured puts s's initial files, runs it and returns its measured
// phase's window and recording.
func runMeasured(t *testing.T, s *scenario.Scenario) (time.Time, time.Time, load.Result) {
	t.Helper()
	c := loadClient()
	ctx := context.Background()
	st := &prefill.HTTPStore{HTTP: c.HTTP, Auth: c.Auth}
	if _, err := prefill.Initial(ctx, s, st, prefill.Options{Concurrency: 8}, nil); err != nil {
		t.Fatalf("initial files: %v", err)
	}
	res, err := load.Run(ctx, load.Config{Scenario: s, Client: c, Users: 32})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second) // rsyslog writes the last lines
	return res.Started, res.Started.Add(res.Duration), *res
}

// fetchLog copies proxy1's access lines of requests started in [from, to]
// to path.
func fetchLog(t *testing.T, lab *Env, from, to time.Time, path string) string {
	t.Helper()
	out, err := lab.SSH(t, "proxy1", "cat "+accessLog)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	tp, _ := proxylog.Compile(proxylog.DefaultTemplate)
	var kept []string
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		_, rest, _ := strings.Cut(line, ": ")
		var r proxylog.Record
		if tp.Parse(rest, &r) == nil && !r.Start.Before(from) && !r.Start.After(to) {
			kept = append(kept, line)
		}
	}
	if len(kept) == 0 {
		t.Fatalf("no access line of %v to %v in %s (%d bytes)", from, to, accessLog, len(out))
	}
	if err := os.WriteFile(path, []byte(strings.Join(kept, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// fitLog runs `benchbed workload fit --json` on log (writing the
// scenario to out when given) and returns the fit.
func fitLog(t *testing.T, lab *Env, log, out string) (*workload.Fit, string) {
	t.Helper()
	args := []string{"workload", "fit", "--json", log}
	if out != "" {
		args = append(args, "--out", out)
	}
	stdout, stderr, err := lab.Benchbed(t, args...)
	if err != nil {
		t.Fatalf("fit: %v\n%s", err, stderr)
	}
	var f workload.Fit
	if err := json.Unmarshal([]byte(stdout), &f); err != nil {
		t.Fatal(err)
	}
	t.Logf("fit of %s: %d requests, %.2f req/s, ops %+v", filepath.Base(log), f.Requests, f.MeanRate, f.Ops)
	return &f, out
}

// count is the fit's count of method.
func count(f *workload.Fit, method string) int64 {
	for _, op := range f.Ops {
		if op.Method == method {
			return op.Count
		}
	}
	return 0
}

// checkAgainstRun compares the fit with what the load ran: the mix by
// method with its recording (UPDATE is a PUT), the PUT size quantiles
// with the scenario's law, the mean rate with its operations over its
// measured time.
func checkAgainstRun(t *testing.T, f *workload.Fit, ran load.Result, s *scenario.Scenario, took time.Duration) {
	t.Helper()
	n := map[string]float64{}
	total := 0.0
	for op, h := range ran.Recording {
		m := op
		if op == load.OpUpdate {
			m = "PUT"
		}
		n[m] += float64(h.LastByte.Count() + h.ErrorCount())
		total += float64(h.LastByte.Count() + h.ErrorCount())
	}
	for _, op := range f.Ops {
		if want := 100 * n[op.Method] / total; math.Abs(op.Percent-want) > 2 {
			t.Errorf("%s: %.2f %% of the fit, %.2f %% of the run", op.Method, op.Percent, want)
		}
	}
	if want := total / took.Seconds(); math.Abs(f.MeanRate-want) > 0.05*want {
		t.Errorf("mean rate %.2f, the run's %.2f", f.MeanRate, want)
	}
	law := putSizes(s, 200000)
	for _, op := range f.Ops {
		if op.Method != "PUT" {
			continue
		}
		for q, got := range map[float64]float64{0.1: op.Sizes.P10, 0.5: op.Sizes.P50, 0.9: op.Sizes.P90} {
			if want := law[int(q*float64(len(law)))]; math.Abs(got-want) > 0.1*want {
				t.Errorf("PUT size quantile %v: %.0f fitted, %.0f by the scenario", q, got, want)
			}
		}
	}
}

// putSizes draws n PUT sizes as load does (a class by initial_files, a
// size uniform in it; every class has the same crud profile), sorted.
func putSizes(s *scenario.Scenario, n int) []float64 {
	rng := rand.New(rand.NewPCG(1, 1))
	var total float64
	for _, v := range s.InitialFiles {
		total += float64(v)
	}
	out := make([]float64, n)
	for i := range out {
		u := rng.Float64() * total
		z := s.Sizes[len(s.Sizes)-1]
		for _, c := range s.Sizes {
			if u -= float64(s.InitialFiles[c.Name]); u < 0 {
				z = c
				break
			}
		}
		out[i] = float64(z.SizeMin) + rng.Float64()*float64(z.SizeMax-z.SizeMin)
	}
	slices.Sort(out)
	return out
}

// agree checks that fit b agrees with fit a: mix within 2 points, PUT and
// GET size quantiles within 10 %, mean rate within 5 %. The two runs are
// two random draws of the same mix, so a share may differ by their
// sampling error as well as by the fit's: the mix's bound is 2 points or
// four standard errors of the difference of two binomial shares,
// whichever is wider (at 2,400 requests a run and a share of a half,
// 5.8 points); each fit is held to 2 points of its own run by
// checkAgainstRun, where no sampling enters.
func agree(t *testing.T, what string, b, a *workload.Fit) {
	t.Helper()
	na, nb := fitTotal(a), fitTotal(b)
	for _, op := range a.Ops {
		var other *workload.Op
		for i := range b.Ops {
			if b.Ops[i].Method == op.Method {
				other = &b.Ops[i]
			}
		}
		p := op.Percent / 100
		bound := max(2, 400*math.Sqrt(p*(1-p)*(1/na+1/nb)))
		if other == nil || math.Abs(other.Percent-op.Percent) > bound {
			t.Errorf("%s: %s %+v, the first fit's %.2f %% (bound ±%.1f points)", what, op.Method, other, op.Percent, bound)
			continue
		}
		if op.Method == "PUT" {
			for _, p := range [][2]float64{{other.Sizes.P10, op.Sizes.P10}, {other.Sizes.P50, op.Sizes.P50}, {other.Sizes.P90, op.Sizes.P90}} {
				if math.Abs(p[0]-p[1]) > 0.1*p[1] {
					t.Errorf("%s: PUT size quantiles %+v, the first fit's %+v", what, other.Sizes, op.Sizes)
				}
			}
		}
	}
	if math.Abs(b.MeanRate-a.MeanRate) > 0.05*a.MeanRate {
		t.Errorf("%s: mean rate %.2f, the first fit's %.2f", what, b.MeanRate, a.MeanRate)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fitTotal is the requests a fit's mix is of.
func fitTotal(f *workload.Fit) float64 {
	n := 0.0
	for _, op := range f.Ops {
		n += float64(op.Count)
	}
	return max(n, 1)
}
