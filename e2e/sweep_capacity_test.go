package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchbed/results"
	"benchbed/results/rundir"
)

// TestSweepCapacity: a sweep of normal and servers_per_port=2 with a
// capacity search (probes of 2 s, a loose SLO) keeps each variant's
// capacity with its probes and prints it; a sweep of a duration = "auto"
// workload (warmup auto) stops by itself and says why; beside it two
// identical runs held at 20 req/s. compare --fail-if exits 1 on the slow
// run against the auto one and 0 on the repeat of the slow one.
func TestSweepCapacity(t *testing.T) {
	start := time.Now()
	defer func() { t.Logf("TestSweepCapacity took %.0f s", time.Since(start).Seconds()) }()
	lab := Lab(t)
	searchTB := labTestbed(t, lab, t.TempDir(), 300, 3, []labEdit{
		{`(?m)^(\s*)duration\s*=\s*"[^"]*"`, `${1}search {
    slo   = { first_byte_p99 = "2s", max_error_rate = "1%" }
    from  = 40
    to    = 80
    probe = "2s"
  }`},
		{`(?m)^(\s*users\s*=\s*)\d+`, `${1}16`},
		{`(?m)^(\s*warmup\s*=\s*)"[^"]*"`, `${1}"1s"`},
	})
	if out, errOut, err := lab.Benchbed(t, "setup", "-q", searchTB); err != nil {
		t.Fatalf("benchbed setup: %v\n%s\n%s", err, out, errOut)
	}
	runs := t.TempDir()
	out, errOut, err := lab.Benchbed(t, "sweep", "--runs-dir", runs, "--only", "normal", "--only", "servers_per_port=2", searchTB)
	if err != nil {
		t.Fatalf("search sweep: %v\n%s\n%s", err, out, errOut)
	}
	run := onlyRun(t, runs)
	sum := readSummary(t, run)
	if len(sum.Cells) != 2 {
		t.Fatalf("search sweep: %d cells, want 2", len(sum.Cells))
	}
	for _, c := range sum.Cells {
		s := c.Search
		if c.Status != "ok" || s == nil || s.Capacity < 40 || s.Capacity > 80 || len(s.Probes) < 2 {
			t.Fatalf("cell %s: status %s, search %+v", c.ID, c.Status, s)
		}
		t.Logf("%s: capacity at %s: %.4g req/s (%s) in %d probes", c.Variant, s.SLO, s.Capacity, s.Outcome, len(s.Probes))
		for i, p := range s.Probes {
			t.Logf("  probe %d %s at %.4g req/s: achieved %.4g, first-byte p99 %.1f ms, client CPU %s: pass %v",
				i+1, p.Role, p.Offered, p.Achieved, p.FirstByte.P99*1000, cpuOf(p.ClientCPU), p.Pass)
			if p.Count == 0 || p.ClientCPU == nil {
				t.Errorf("probe %d of %s without its figures or the agents' CPU: %+v", i+1, c.ID, p)
			}
		}
		kept, _ := filepath.Glob(filepath.Join(run, rundir.CellsDir, c.ID, "probes", "*", rundir.AgentsDir, "agent-*.jsonl"))
		if len(kept) != len(s.Probes) {
			t.Errorf("cell %s keeps %d probe streams for %d probes", c.ID, len(kept), len(s.Probes))
		}
	}
	if !strings.Contains(out, "Capacity at SLO") || !strings.Contains(out, "| "+sum.Cells[1].ID+" ") {
		t.Errorf("the sweep's tables lack the capacities:\n%s", out)
	}
	checkJournalFollowsPlan(t, lab, searchTB, run)
	if rep, errOut, err := lab.Benchbed(t, "report", "--out", filepath.Join(t.TempDir(), "rep"), run); err != nil {
		t.Errorf("report: %v\n%s\n%s", err, rep, errOut)
	}

	autoTB := autoTestbed(t, lab)
	runs = t.TempDir()
	out, errOut, err = lab.Benchbed(t, "sweep", "--runs-dir", runs, "--only", "normal", autoTB)
	if err != nil {
		t.Fatalf("auto sweep: %v\n%s\n%s", err, out, errOut)
	}
	run = onlyRun(t, runs)
	sum = readSummary(t, run)
	byWorkload := map[string]results.Cell{}
	for _, c := range sum.Cells {
		byWorkload[c.Workload] = c
	}
	auto := byWorkload["64K_get"]
	t.Logf("duration auto: %s after %.1f s at %.1f req/s (warm-up: %s)", auto.Stopped, auto.DurationS, auto.Total.ReqPerS, auto.WarmedUp)
	if auto.Status != "ok" || !strings.HasSuffix(auto.Stopped, " reached") || auto.WarmedUp == "" {
		t.Errorf("auto cell: status %s, stopped %q after %.1f s, warmed up %q", auto.Status, auto.Stopped, auto.DurationS, auto.WarmedUp)
	}
	slow, again := byWorkload["slow"], byWorkload["slow_again"]
	gate := []string{"--fail-if", "req/s < -10%"}
	code, cmpOut := compareExit(t, lab, append([]string{"compare", run + ":" + auto.ID, run + ":" + slow.ID}, gate...))
	t.Logf("compare --fail-if on the slow run (%.1f against %.1f req/s): exit %d", slow.Total.ReqPerS, auto.Total.ReqPerS, code)
	if code != 1 || !strings.Contains(cmpOut, "FAIL") {
		t.Errorf("compare of the slow run: exit %d, want 1:\n%s", code, cmpOut)
	}
	code, cmpOut = compareExit(t, lab, append([]string{"compare", run + ":" + slow.ID, run + ":" + again.ID}, gate...))
	t.Logf("compare --fail-if on the repeat (%.1f against %.1f req/s): exit %d", again.Total.ReqPerS, slow.Total.ReqPerS, code)
	if code != 0 {
		t.Errorf("compare of the repeat: exit %d, want 0:\n%s", code, cmpOut)
	}
}

// autoTestbed is the lab's testbed whose workload runs with duration and
// warmup "auto", beside two identical workloads held at 20 req/s for 6 s (4 seconds
// compared once the first and last are dropped).
func autoTestbed(t *testing.T, lab *Env) string {
	slow := func(name string) string {
		return `workload "` + name + `" {
  scenario = "64K_get_lab.scenario"
  users    = 8
  rate     = 20
  duration = "6s"
  clients  = ["client1"]
  auth {
    url  = "http://198.18.0.11:8080/auth/v1.0"
    user = "bench:bench"
    key  = var.auth_key
  }
}
`
	}
	return labTestbed(t, lab, t.TempDir(), 300, 3, []labEdit{
		{`(?m)^(\s*)duration\s*=\s*"[^"]*"`, `${1}duration     = "auto"
  precision    = "10%"
  max_duration = "30s"
  warmup       = "auto"
  max_warmup   = "5s"`},
		{`(?m)^(\s*users\s*=\s*)\d+`, `${1}16`},
		{`(?m)^(\s*warmup\s*=\s*)"5s"`, `${1}"1s"`},
		{`(?m)^prefill \{`, slow("slow") + slow("slow_again") + "prefill {"},
		{`(?m)^(\s*workloads\s*=\s*)\["64K_get"\]`, `${1}["64K_get", "slow", "slow_again"]`},
	})
}

// compareExit runs benchbed compare and returns its exit status.
func compareExit(t *testing.T, lab *Env, args []string) (int, string) {
	t.Helper()
	out, errOut, err := lab.Benchbed(t, args...)
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out + errOut
	} else if err != nil {
		t.Fatalf("compare: %v\n%s\n%s", err, out, errOut)
	}
	return 0, out + errOut
}

func cpuOf(x *float64) string {
	if x == nil {
		return "-"
	}
	return results.Percent(*x)
}
