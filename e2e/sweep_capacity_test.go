package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"benchbed/plan"
	"benchbed/results"
	"benchbed/results/rundir"
)

// TestSweepCapacity: one sweep of normal and sorting_method=timing (a
// proxy setting alone, so that each switch between them reloads the proxy
// only), its five workloads in one testbed. On both variants: a capacity
// search (a 1 s warm-up, probes of 2 s from 100 req/s, resolution 50 %:
// one bisection between the doubling steps that passed and failed;
// first-byte p99 under 1 s: the lab meets it at low rates and, past its
// knee, falls short of the rate or misses it; loose, so that the loaded
// machine's stalls do not fail the low rates) finds each variant's
// capacity between probes that passed and probes that failed, keeps it
// with its probes, prints it and plots its curve in the report; beside it
// a workload of repeat = "auto" held at 20 req/s adds repeats until
// compare's test decides, and says why. On normal alone (variants =
// ["normal"], so the matrix leaves their timing cells out): a duration =
// "auto" workload (warmup auto, at most 2 s: it cannot be steady before
// 10 s) stops by itself and says why, and two identical runs held at 20
// req/s; compare --fail-if exits 1 on the slow run against the auto one
// and 0 on the repeat of the slow one. Cells go variant, then workload:
// normal's eight planned cells, timing's five, then the rounds (normal's
// and timing's fifth repeat of "same"), so the variants switch once
// before the rounds and twice in each, whatever the workloads' order; the
// sweep pays its preflight, lock, backup, prefill, first cell's reload
// and restore once. It runs no telemetry (no check reads it).
func TestSweepCapacity(t *testing.T) {
	start := time.Now()
	defer func() { t.Logf("TestSweepCapacity took %.0f s", time.Since(start).Seconds()) }()
	lab := Lab(t)
	tb := capacityTestbed(t, lab)
	setUp(t, lab, tb)
	runs := t.TempDir()
	swept := time.Now()
	out, errOut, err := lab.Benchbed(t, "sweep", "--runs-dir", runs, "--only", "normal", "--only", timingName, tb)
	if err != nil {
		t.Fatalf("sweep: %v\n%s\n%s", err, out, errOut)
	}
	t.Logf("the sweep took %.0f s", time.Since(swept).Seconds())
	run := onlyRun(t, runs)
	logStepTimes(t, run)
	sum := readSummary(t, run)
	checkNormalOnly(t, sum)
	var searches []results.Cell
	for _, c := range sum.Cells {
		if c.Workload == "64K_get" {
			searches = append(searches, c)
		}
	}
	if len(searches) != 2 {
		t.Fatalf("%d search cells, want 2", len(searches))
	}
	for _, c := range searches {
		checkKnee(t, run, c)
	}
	if !strings.Contains(out, "Capacity at SLO") || !strings.Contains(out, "| "+searches[1].ID+" ") {
		t.Errorf("the sweep's tables lack the capacities:\n%s", out)
	}
	checkRepeatAuto(t, sum, out)
	checkJournalFollowsPlan(t, lab, tb, run)
	repDir := filepath.Join(t.TempDir(), "rep")
	if rep, errOut, err := lab.Benchbed(t, "report", "--out", repDir, run); err != nil {
		t.Errorf("report: %v\n%s\n%s", err, rep, errOut)
	}
	for _, c := range searches {
		checkCurve(t, repDir, c)
	}
	checkAutoAndGate(t, lab, run, sum)
}

// checkAutoAndGate checks the duration = "auto" cell stopped by itself
// at its precision, warmed up, and that compare --fail-if exits 1 on the
// slow run against it and 0 on the slow run's repeat.
func checkAutoAndGate(t *testing.T, lab *Env, run string, sum results.Summary) {
	t.Helper()
	byWorkload := map[string]results.Cell{}
	for _, c := range sum.Cells {
		byWorkload[c.Workload] = c
	}
	auto := byWorkload["auto"]
	t.Logf("duration auto: %s after %.1f s at %.1f req/s (warm-up: %s)", auto.Stopped, auto.DurationS, auto.Total.ReqPerS, auto.WarmedUp)
	if auto.Status != "ok" || !strings.HasPrefix(auto.Stopped, "precision ") || !strings.HasSuffix(auto.Stopped, " reached") || auto.WarmedUp == "" {
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

// normalOnly are the workloads of capacityTestbed with variants =
// ["normal"].
var normalOnly = []string{"auto", "slow", "slow_again"}

// checkNormalOnly checks the matrix left out the timing cells of the
// normal-only workloads (one cell each on normal) and numbered the planned
// cells (those before the rounds of repeat = "auto", whose ids follow the
// whole matrix's) in order without gaps: timing's follow normal's.
func checkNormalOnly(t *testing.T, sum results.Summary) {
	t.Helper()
	n := map[string]int{}
	planned := 0
	for _, c := range sum.Cells {
		if slices.Contains(normalOnly, c.Workload) {
			n[c.Workload+" on "+c.Variant]++
		}
		if c.Repeat > plan.MinAutoRepeat {
			continue
		}
		planned++
		if want := fmt.Sprintf("%03d-", planned); !strings.HasPrefix(c.ID, want) {
			t.Errorf("planned cell %d is %s, want %s...", planned, c.ID, want)
		}
	}
	for _, w := range normalOnly {
		if n[w+" on normal"] != 1 || n[w+" on "+timingName] != 0 {
			t.Errorf("cells of the normal-only workloads: %v", n)
			return
		}
	}
}

// capacityTestbed is the lab's testbed of TestSweepCapacity's sweep: its
// 64K_get a capacity search, a sweep warm-up of 1 s, the timing variant,
// the repeat = "auto" workload "same" (both on every variant), then the
// duration = "auto" workload "auto" and "slow" and "slow_again" held at
// 20 req/s for 9 s (7 seconds compared once the first and last are
// dropped), on normal only; all of them prefilled.
func capacityTestbed(t *testing.T, lab *Env) string {
	normal := "  variants = [\"normal\"]\n"
	return labTestbed(t, lab, t.TempDir(), 300, 3, []labEdit{
		{`(?m)^(\s*)duration\s*=\s*"[^"]*"`, `${1}search {
    slo        = { first_byte_p99 = "1s", max_error_rate = "1%" }
    from       = 100
    to         = 3200
    probe      = "2s"
    resolution = "50%"
  }`},
		{`(?m)^(\s*warmup\s*=\s*)"[^"]*"`, `${1}"1s"`},
		{`(?m)^prefill \{`, heldWorkload("same", "2s", `  warmup     = "0s"
  repeat     = "auto"
  max_repeat = 5
`) + autoWorkload + heldWorkload("slow", "9s", normal) + heldWorkload("slow_again", "9s", normal) + "prefill {"},
		{`(?m)^(\s*workloads\s*=\s*)\["64K_get"\]`, `${1}["64K_get", "same", "auto", "slow", "slow_again"]`},
		{`(?m)^variant "normal" \{\}\n`, "$0\n" + timingVariant},
		noTelemetry,
	})
}

// autoWorkload is the lab's scenario run by 16 users with duration and
// warmup "auto", on normal only.
const autoWorkload = `workload "auto" {
  scenario     = "64K_get_lab.scenario"
  users        = 16
  duration     = "auto"
  precision    = "15%"
  max_duration = "30s"
  warmup       = "auto"
  max_warmup   = "2s"
  clients      = ["client1"]
  variants     = ["normal"]
  auth {
    url  = "http://198.18.0.11:8080/auth/v1.0"
    user = "bench:bench"
    key  = var.auth_key
  }
}
`

// timingVariant changes only a proxy setting (the proxy sorts the object
// servers by their response times instead of shuffling them), so that the
// sweep's switches between its two variants, the repeat = "auto"
// workload's rounds included, reload the proxy alone: servers_per_port=2
// would reload 16 object-server workers and switch the object ring's
// ports at each switch.
const timingVariant = `variant "timing" {
  name = "` + timingName + `"
  set "proxy-server" {
    settings = { "app:proxy-server" = { sorting_method = "timing" } }
  }
}
`

// timingName is timingVariant's name.
const timingName = "sorting_method=timing"

// noTelemetry turns the telemetry agents off: none of this test's checks
// reads them (a search probe's client CPU is the load agent's own), and
// each cell would start and stop them on every host.
var noTelemetry = labEdit{`(?m)^sweep \{`, "telemetry {\n  enabled = false\n}\n\nsweep {"}

// heldWorkload is a workload of the lab's scenario held at 20 req/s for
// duration, with extra attributes.
func heldWorkload(name, duration, extra string) string {
	return `workload "` + name + `" {
  scenario = "64K_get_lab.scenario"
  users    = 8
  rate     = 20
  duration = "` + duration + `"
  clients  = ["client1"]
` + extra + `  auth {
    url  = "http://198.18.0.11:8080/auth/v1.0"
    user = "bench:bench"
    key  = var.auth_key
  }
}
`
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

// checkKnee checks a search cell found a knee: probes that passed and
// probes that failed, the capacity (confirmed, or found by the bisection
// and unconfirmed on a noisy lab) at most the highest rate that passed
// and under the lowest that failed before the confirming runs; it logs
// the probes.
func checkKnee(t *testing.T, run string, c results.Cell) {
	t.Helper()
	s := c.Search
	if c.Status != "ok" || s == nil {
		t.Fatalf("cell %s: status %s, search %+v", c.ID, c.Status, s)
	}
	t.Logf("%s: capacity at %s: %.4g req/s (%s: %s) in %d probes", c.Variant, s.SLO, s.Capacity, s.Outcome, s.Why, len(s.Probes))
	highestPass, lowestFail := 0.0, 0.0
	for i, p := range s.Probes {
		t.Logf("  probe %d %s at %.4g req/s: achieved %.4g, first-byte p99 %.1f ms, client CPU %s: pass %v (%s)",
			i+1, p.Role, p.Offered, p.Achieved, p.FirstByte.P99*1000, cpuOf(p.ClientCPU), p.Pass, p.Why)
		if p.Count == 0 || p.ClientCPU == nil {
			t.Errorf("probe %d of %s without its figures or the agents' CPU: %+v", i+1, c.ID, p)
		}
		switch {
		case p.Role == "confirm":
		case p.Pass:
			highestPass = max(highestPass, p.Offered)
		case lowestFail == 0 || p.Offered < lowestFail:
			lowestFail = p.Offered
		}
	}
	t.Logf("  highest pass %.4g req/s, lowest fail %.4g req/s", highestPass, lowestFail)
	if (s.Outcome != results.OutcomeCapacity && s.Outcome != results.OutcomeUnconfirmed) || highestPass == 0 || lowestFail == 0 ||
		s.Capacity < s.From || s.Capacity > highestPass || s.Capacity >= lowestFail {
		t.Errorf("cell %s found no knee: outcome %q, capacity %.4g, highest pass %.4g, lowest fail %.4g",
			c.ID, s.Outcome, s.Capacity, highestPass, lowestFail)
	}
	kept, _ := filepath.Glob(filepath.Join(run, rundir.CellsDir, c.ID, "probes", "*", rundir.AgentsDir, "agent-*.jsonl"))
	if len(kept) != len(s.Probes) {
		t.Errorf("cell %s keeps %d probe streams for %d probes", c.ID, len(kept), len(s.Probes))
	}
}

// checkCurve checks the report plots the search cell's curve with its
// knee marked.
func checkCurve(t *testing.T, repDir string, c results.Cell) {
	t.Helper()
	svgs, _ := filepath.Glob(filepath.Join(repDir, "*search_"+c.ID+"*.svg"))
	if len(svgs) == 0 {
		svgs, _ = filepath.Glob(filepath.Join(repDir, "*", "*search_"+c.ID+"*.svg"))
	}
	if len(svgs) == 0 {
		t.Errorf("the report has no search plot of %s", c.ID)
		return
	}
	b, err := os.ReadFile(svgs[0])
	must(t, err)
	if !strings.Contains(string(b), "knee: capacity") {
		t.Errorf("%s does not mark the knee", svgs[0])
	}
}

// checkRepeatAuto checks the repeat = "auto" workload "same" ran at
// least the U test's 4 repeats of each variant and at most its 5, and
// that the summary and the sweep's output say why it stopped.
func checkRepeatAuto(t *testing.T, sum results.Summary, out string) {
	t.Helper()
	ran := map[string][]float64{}
	for _, c := range sum.Cells {
		if c.Workload == "same" {
			ran[c.Variant] = append(ran[c.Variant], c.Total.ReqPerS)
		}
	}
	if len(sum.RepeatAuto) != 1 {
		t.Fatalf("repeat_auto: %+v", sum.RepeatAuto)
	}
	st := sum.RepeatAuto[0]
	t.Logf("repeat auto: %s against %s after %d repeats: %s (req/s %v against %v)", st.Variant, st.Baseline, st.Repeats, st.Stopped, ran[st.Variant], ran[st.Baseline])
	if st.Baseline != "normal" || st.Variant != timingName || st.Repeats < 4 || st.Repeats > 5 ||
		len(ran["normal"]) != st.Repeats || len(ran[timingName]) != st.Repeats || st.Stopped == "" ||
		(st.Kind != "separated" && st.Kind != "no-difference" && st.Kind != "max") {
		t.Errorf("repeat auto: %+v, repeats run %v", st, ran)
	}
	if !strings.Contains(out, "repeat auto, same: "+timingName+" against normal: "+st.Stopped) {
		t.Errorf("the sweep's table does not say why the repeats stopped:\n%s", out)
	}
}
