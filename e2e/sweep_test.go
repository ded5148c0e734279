package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"benchbed/e2e/labkit"
	"benchbed/results"
	"benchbed/results/rundir"
)

// sweepOnly are the cells of the shared sweep: issue 8's end-to-end
// sweep, normal then a server per disk, with threads_per_disk=1 (a conf
// change only) between them, where the interrupt lands: a restore from
// it is a reload of the object servers, where one from a
// servers_per_port cell restarts every worker (12 to 14 s on the lab).
// servers_per_port=2 runs in TestSweepCapacity's search.
var sweepOnly = []string{"--only", "normal", "--only", "threads_per_disk=1", "--only", "servers_per_port=1"}

// sharedLabels are sweepOnly's labels, in the sweep's order.
var sharedLabels = []string{"normal", "threads_per_disk=1", "servers_per_port=1"}

// TestSweep: the shared sweep (sharedSweep) of normal,
// threads_per_disk=1 and servers_per_port=1 (6 s runs, 500 objects,
// telemetry on: sweepTestbed), its run directory shared with TestTelemetry. Interrupted
// in its second cell, it restores the lab and keeps its partial results;
// it first takes over the stale sweep locks left by a process of this
// machine that is gone, saying so, and its journal follows the plan.
// Resumed, then SIGKILLed in its third cell and resumed again: the last
// resume runs the first two cells no more, prints the table with req/s
// above 0 and no error in any row, writes a report and a compare, and
// leaves the hosts' confs and rings byte-identical.
func TestSweep(t *testing.T) {
	lab := Lab(t)
	s := sharedSweep(t, lab)
	t.Run("InterruptRestoresAndKeepsPartialResults", func(t *testing.T) {
		out, dead := s.intOut, s.dead
		if ee, ok := s.intErr.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
			t.Fatalf("interrupted sweep: %v, want exit 130:\n%s", s.intErr, out)
		}
		for _, h := range Hosts {
			if !strings.Contains(out, h+": took over a stale lock: run "+dead.run) || !strings.Contains(out, fmt.Sprintf("pid %d no longer runs", dead.pid)) {
				t.Errorf("the sweep does not say it took over %s's stale lock (run %s, pid %d):\n%s", h, dead.run, dead.pid, out)
			}
		}
		checkJournalFollowsPlan(t, lab, s.tb, s.run)
		if !journalSays(t, s.run, "lock", "took over a stale lock") {
			t.Errorf("%s: the journal does not record the stale locks taken over", s.run)
		}
		if !strings.Contains(out, "restoring the lab") || !strings.Contains(out, "partial results kept") {
			t.Fatalf("the interrupted sweep does not say it restores and keeps results:\n%s", out)
		}
		if b := s.intSummary; !strings.Contains(b, `"status": "ok"`) || !strings.Contains(b, `"status": "interrupted"`) {
			t.Fatalf("%s should keep the finished cell and the interrupted one:\n%s", rundir.SummaryFile, b)
		}
		if s.intAfter != s.before {
			t.Fatalf("the lab's confs and rings differ after the interrupt:\nbefore:\n%s\nafter:\n%s", s.before, s.intAfter)
		}
	})
	t.Run("KilledInThirdCellResumesAndLeavesTheLabAsFound", func(t *testing.T) {
		checkTable(t, s.out, sharedLabels)
		t.Logf("the resumed sweep's table:\n%s", s.out)
		checkSummary(t, s.run, len(sweepOnly)/2)
		n := 0
		for _, c := range runStarts(t, s.run) {
			if c == s.first {
				n++
			}
		}
		if n != 1 || !strings.Contains(s.errOut, s.first+": kept") {
			t.Fatalf("cell %s ran %d times (want once, kept on resume):\n%s", s.first, n, s.errOut)
		}
		if starts := runStarts(t, s.run); len(starts) != 5 {
			t.Errorf("measured runs started %v: want 5 (the first cell once, the second twice: interrupted, then resumed; the third twice: killed, then resumed)", starts)
		}
		checkReportAndCompare(t, lab, s.run)
		if s.after != s.before {
			t.Fatalf("the lab's confs and rings differ after the resumed sweep:\nbefore:\n%s\nafter:\n%s", s.before, s.after)
		}
	})
}

// staleHolder is the sweep lock writeStaleLocks left.
type staleHolder struct {
	run string
	pid int
}

// writeStaleLocks writes on every lab host the sweep lock of a run whose
// process, of this machine, has ended: what a sweep killed with its
// machine's lab leaves.
func writeStaleLocks(t *testing.T, lab *Env) staleHolder {
	t.Helper()
	gone := exec.Command("true")
	must(t, gone.Run())
	u, err := user.Current()
	must(t, err)
	host, err := os.Hostname()
	must(t, err)
	h := staleHolder{run: "20261201T000000Z-dead00", pid: gone.Process.Pid}
	line := fmt.Sprintf(`{"run":%q,"by":%q,"pid":%d,"since":"2026-12-01T00:00:00Z"}`, h.run, u.Username+"@"+host, h.pid)
	for _, host := range Hosts {
		if out, err := lab.SSH(t, host, "mkdir -p -m 700 /var/tmp/benchbed && mkdir "+lockDir+" && echo '"+line+"' > "+lockDir+"/holder"); err != nil {
			t.Fatalf("%s: writing a stale lock: %v\n%s", host, err, out)
		}
	}
	return h
}

// journalSays reports whether run's journal has an entry of step whose
// detail contains text.
func journalSays(t *testing.T, dir, step, text string) bool {
	t.Helper()
	r, err := rundir.Open(dir, "lab")
	must(t, err)
	es, err := r.ReadJournal()
	must(t, err)
	for _, e := range es {
		if e.Step == step && strings.Contains(e.Detail, text) {
			return true
		}
	}
	return false
}

// syncBuffer is a buffer written by a process and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startSweep starts the e2e sweep (sweepOnly) in the background.
func startSweep(t *testing.T, lab *Env, runs, tb string) (*exec.Cmd, *syncBuffer, chan error) {
	return startSweepArgs(t, lab, runs, tb, sweepOnly)
}

// waitRuns waits until the sweep under runs has started its n-th measured
// run (that cell's confs and ring ports are in place), within limit, and
// returns its run directory; the sweep ending first fails the test.
func waitRuns(t *testing.T, runs string, n int, limit time.Duration, out *syncBuffer, ended chan error) string {
	t.Helper()
	for deadline := time.Now().Add(limit); ; time.Sleep(200 * time.Millisecond) {
		select {
		case err := <-ended:
			t.Fatalf("the sweep ended (%v) before its measured run %d:\n%s", err, n, out.String())
		default:
		}
		if dirs, _ := filepath.Glob(filepath.Join(runs, "*", "*")); len(dirs) == 1 && len(runStarts(t, dirs[0])) == n {
			return dirs[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("measured run %d never started:\n%s", n, out.String())
		}
	}
}

// waitSecondCell waits until the sweep's second measured run has started
// and returns its run directory.
func waitSecondCell(t *testing.T, runs string, out *syncBuffer, ended chan error) string {
	t.Helper()
	return waitRuns(t, runs, 2, 15*time.Minute, out, ended)
}

// runStarts lists the cells whose measured run started, in journal order.
func runStarts(t *testing.T, dir string) []string {
	t.Helper()
	run, err := rundir.Open(dir, "lab")
	if err != nil {
		t.Fatal(err)
	}
	es, err := run.ReadJournal()
	if err != nil {
		t.Fatal(err)
	}
	var cells []string
	for _, e := range es {
		if e.Step == "run" && e.Status == rundir.StepStarted {
			cells = append(cells, e.Cell)
		}
	}
	return cells
}

func onlyRun(t *testing.T, runs string) string {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(runs, "*", "*"))
	if len(dirs) != 1 {
		t.Fatalf("run directories %v, want one", dirs)
	}
	return dirs[0]
}

// checkTable wants one row per label with req/s above 0 and no error.
func checkTable(t *testing.T, out string, labels []string) {
	t.Helper()
	rows := map[string][]string{}
	for _, l := range strings.Split(out, "\n") {
		f := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|")
		if len(f) == 8 {
			rows[strings.TrimSpace(f[0])] = f
		}
	}
	for _, want := range labels {
		f, ok := rows[want]
		if !ok {
			t.Fatalf("no row %q in the table:\n%s", want, out)
		}
		rps, _ := strconv.ParseFloat(strings.TrimSpace(f[6]), 64)
		if rps <= 0 || strings.TrimSpace(f[7]) != "0" {
			t.Fatalf("row %q: req/s %q, errors %q; want req/s > 0 and no error:\n%s", want, f[6], f[7], out)
		}
	}
}

// checkSummary wants summary.json with n cells, all ok and without error.
func checkSummary(t *testing.T, dir string, n int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rundir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	var s results.Summary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Cells) != n {
		t.Fatalf("summary has %d cells, want %d", len(s.Cells), n)
	}
	for _, c := range s.Cells {
		if c.Status != "ok" || c.Total.Count == 0 || c.Total.Errors != 0 || len(c.PerSecond) == 0 {
			t.Fatalf("cell %s: status %s, %d ok, %d errors", c.Variant, c.Status, c.Total.Count, c.Total.Errors)
		}
	}
}

// labFiles is the checksum of every conf, ring and builder of the Swift
// hosts, and any file a sweep would have left beside them.
func labFiles(t *testing.T, lab *Env) string {
	t.Helper()
	return onSwiftHosts(t, lab, "cd /etc/swift && sha256sum *.conf *.ring.gz $(ls *.builder 2>/dev/null); ls -A | grep benchbed; true")
}

// sweepTestbed writes lab.hcl with 6 s runs of 16 users, a 1 s warm-up,
// 500 initial objects and telemetry on (statsd and drop_caches: what
// TestTelemetry checks) into dir: runs as short as the checks allow
// (compare's per-second test still has samples; telemetry one sample a
// second).
func sweepTestbed(t *testing.T, lab *Env, dir string) string {
	t.Helper()
	return labTestbed(t, lab, dir, 500, 6, []labEdit{
		{`(?m)^(\s*duration\s*=\s*)"[^"]*"`, `${1}"6s"`},
		{`(?m)^(\s*users\s*=\s*)\d+`, `${1}16`},
		{`(?m)^(\s*warmup\s*=\s*)"[^"]*"`, `${1}"1s"`},
		{`(?m)^sweep \{`, "telemetry {\n  statsd      = true\n  drop_caches = true\n}\n\nsweep {"},
	})
}

// labEdit is one regexp replacement of the lab's testbed text.
type labEdit struct{ re, repl string }

// applyEdits applies edits to s, the text of the testbed file name, in
// order; an edit that no longer matches fails the test.
func applyEdits(t *testing.T, name, s string, edits []labEdit) string {
	t.Helper()
	pairs := make([][2]string, len(edits))
	for i, e := range edits {
		pairs[i] = [2]string{e.re, e.repl}
	}
	out, err := labkit.Edit(s, pairs)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

// labTestbed writes the lab's testbed, edited, as dir/lab.hcl beside a copy
// of its scenario with objects initial objects and runs of secs seconds,
// and returns its path. An edit that no longer matches fails the test.
func labTestbed(t *testing.T, lab *Env, dir string, objects, secs int, edits []labEdit) string {
	t.Helper()
	s := applyEdits(t, lab.Testbed, labText(t, lab), edits)
	m := regexp.MustCompile(`scenario\s*=\s*"([^"]+)"`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("%s: no scenario file", lab.Testbed)
	}
	writeScenario(t, filepath.Join(filepath.Dir(lab.Testbed), m[1]), filepath.Join(dir, m[1]), objects, secs)
	p := filepath.Join(dir, "lab.hcl")
	must(t, os.WriteFile(p, []byte(s), 0o644))
	return p
}

// writeScenario copies a scenario with n initial objects in all and a run
// of secs seconds.
func writeScenario(t *testing.T, from, to string, n, secs int) {
	t.Helper()
	b, err := os.ReadFile(from)
	must(t, err)
	var sc map[string]any
	must(t, json.Unmarshal(b, &sc))
	files, _ := sc["initial_files"].(map[string]any)
	if len(files) != 1 {
		t.Fatalf("%s: want one size class in initial_files, got %v", from, sc["initial_files"])
	}
	for k := range files {
		files[k] = n
	}
	sc["run_seconds"] = secs
	out, err := json.Marshal(sc)
	must(t, err)
	must(t, os.WriteFile(to, out, 0o644))
}
