package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"benchbed/results/rundir"
)

// TestFault: the sweep's faults on the real lab, one lab and one setup for
// all of them, each case checking that the lab's confs, rings and builders
// end byte-identical to what they were before it:
//   - a changed host key is refused before anything changes, even with
//     --accept-new-host-keys, and so is an unreachable host;
//   - a sweep SIGKILLed mid-cell while three faults are applied (a paused
//     object server, a partition, a slow link) leaves changes, its locks
//     and its faults, a concurrent sweep meanwhile is refused naming the
//     holder, and so is a restore of the live run; once it is killed,
//     `benchbed restore` undoes the faults and brings everything back,
//     healthy and unlocked, with no fault left;
//   - one sweep of a paused object server (its cell has its before, during
//     and after phases, a recovery and its journal follows the plan), then
//     a variant whose object servers cannot start: that cell fails (naming
//     host and service, log kept), the sweep goes on and the lab is restored;
//   - a host lost mid-sweep is named, the others are restored, what is left
//     is said, a new sweep is refused by the copies left on it, and
//     `benchbed restore` finishes once the host is back;
//   - in that sweep, before the cell that loses the host, stor1's object
//     disks on loop devices and a PUT cell with d0 slowed: the throttle
//     holds the object server with I/O through it, the cell has its
//     phases, and no throttle is left;
//   - no auth key, token or swift.conf hash reaches any output or run file.
//
// In the whole e2e package it finds the lab up and set up by the tests
// before it (its own setup then changes what its testbed needs); alone,
// the lab's first use brings the lab up.
func TestFault(t *testing.T) {
	lab := Lab(t)
	f := newFault(t, lab)
	setUp(t, lab, f.tb)
	f.before = hostFiles(t, lab)
	t.Cleanup(func() { f.releaseLocks(t) })
	steps := []struct {
		name string
		fn   func(*testing.T, *fault)
	}{
		{"ChangedHostKeyIsRefused", testChangedHostKey},
		{"UnreachableHostIsRefused", testUnreachableHost},
		{"KilledMidCellThenRestore", testKilledThenRestore},
		{"VariantThatCannotStart", testCannotStart},
		{"HostLostMidSweep", testHostLost},
		{"NoSecretInOutputOrRun", testNoSecret},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) { s.fn(t, f) })
	}
}

// fault is what TestFault's cases share: the lab, the testbed, the lab's
// files before any case, every run's directory and every output.
type fault struct {
	lab    *Env
	dir    string // the testbed's directory; run roots below runs/
	tb     string
	before map[string]string // per Swift host, the checksums of /etc/swift

	mu  sync.Mutex
	out strings.Builder // every benchbed stdout and stderr
}

// swiftHosts are the lab hosts with /etc/swift.
var swiftHosts = []string{"proxy1", "stor1", "stor2"}

func newFault(t *testing.T, lab *Env) *fault {
	f := &fault{lab: lab, dir: t.TempDir()}
	f.tb = faultTestbed(t, lab, f.dir)
	return f
}

// runs is a fresh root of run directories for one case.
func (f *fault) runs(t *testing.T, name string) string {
	t.Helper()
	d := filepath.Join(f.dir, "runs", name)
	must(t, os.MkdirAll(d, 0o755))
	return d
}

// benchbed runs the CLI and keeps its output for the secrets check.
func (f *fault) benchbed(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	out, errOut, err := f.lab.Benchbed(t, args...)
	f.keep(out + errOut)
	checkNoPanic(t, out+errOut)
	return out, errOut, err
}

func (f *fault) keep(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.out.WriteString(s)
}

// testChangedHostKey replaces stor2's key in a copy of the lab's
// known_hosts: the sweep is refused naming stor2, before any lock or
// backup, with or without --accept-new-host-keys, which must not record
// the key either.
func testChangedHostKey(t *testing.T, f *fault) {
	kh, orig := changedKnownHosts(t, f, "stor2")
	src, err := os.ReadFile(f.tb)
	must(t, err)
	re := regexp.MustCompile(`(?m)^(\s*known_hosts\s*=\s*)"[^"]*"`)
	if !re.Match(src) {
		t.Fatalf("%s: no known_hosts line to replace", f.tb)
	}
	tb := filepath.Join(f.dir, "hostkey.hcl")
	must(t, os.WriteFile(tb, re.ReplaceAll(src, []byte(`${1}"`+kh+`"`)), 0o644))
	for i, extra := range [][]string{nil, {"--accept-new-host-keys"}} {
		runs := f.runs(t, "hostkey"+strings.Repeat("-accept", i))
		_, errOut, err := f.benchbed(t, append(append([]string{"sweep", "--runs-dir", runs}, extra...), tb)...)
		if exitCode(err) != 1 {
			t.Fatalf("sweep %v with stor2's key changed: %v, want exit 1:\n%s", extra, err, errOut)
		}
		if !strings.Contains(errOut, "stor2: HOST KEY CHANGED") || strings.Contains(errOut, "stor1: HOST KEY") {
			t.Errorf("sweep %v: the refusal does not name stor2 (alone):\n%s", extra, errOut)
		}
		noStep(t, onlyRun(t, runs), "lock", "backup")
		t.Logf("sweep %v refused:\n%s", extra, lastLines(errOut, 3))
		if got, _ := os.ReadFile(kh); string(got) != orig {
			t.Errorf("sweep %v changed known_hosts:\nbefore:\n%s\nafter:\n%s", extra, orig, got)
		}
	}
	labAsBefore(t, f, swiftHosts...)
}

// testUnreachableHost kills stor2's sshd before a sweep: the sweep is
// refused naming stor2, before any lock or backup.
func testUnreachableHost(t *testing.T, f *fault) {
	killSSHD(t, "stor2")
	defer bringBack(t)
	runs := f.runs(t, "unreachable")
	_, errOut, err := f.benchbed(t, "sweep", "--runs-dir", runs, "--only", "normal", f.tb)
	if exitCode(err) != 1 {
		t.Fatalf("sweep with stor2 unreachable: %v, want exit 1:\n%s", err, errOut)
	}
	if !strings.Contains(errOut, "stor2: root@198.18.0.22:22: connect") || strings.Contains(errOut, "stor1: root@") {
		t.Errorf("the refusal does not name stor2 (alone) and what failed:\n%s", errOut)
	}
	t.Logf("sweep refused:\n%s", lastLines(errOut, 2))
	noStep(t, onlyRun(t, runs), "lock", "backup")
	bringBack(t)
	labAsBefore(t, f, swiftHosts...)
}

// testKilledThenRestore SIGKILLs a sweep of killed (servers_per_port=1 with
// three faults to the end) during its cell's run, once its faults are
// applied: its ring ports and confs stay, its locks and its faults; a
// second sweep then is refused naming the first and changes nothing;
// `benchbed restore` undoes the faults, puts back every file, restarts
// healthy servers and releases the locks.
func testKilledThenRestore(t *testing.T, f *fault) {
	runs := f.runs(t, "killed")
	// A run longer than the checks made during it: the kill lands in it.
	tb := f.withDuration(t, "killed.hcl", "120s")
	cmd, out, ended := f.start(t, "sweep", "--runs-dir", runs, "--only", "killed", tb)
	run := waitMeasuring(t, runs, out, ended)
	id := filepath.Base(run)
	t.Run("ConcurrentSweepIsRefused", func(t *testing.T) {
		other := f.runs(t, "concurrent")
		_, errOut, err := f.benchbed(t, "sweep", "--runs-dir", other, "--only", "normal", f.tb)
		if exitCode(err) != 1 {
			t.Fatalf("a second sweep while %s runs: %v, want exit 1:\n%s", id, err, errOut)
		}
		for _, h := range Hosts {
			if !regexp.MustCompile(h + `: locked by another sweep: run ` + id + ` by \S+ \(pid \d+\) since \d{4}-`).MatchString(errOut) {
				t.Errorf("the refusal does not name %s, the holder %s and since when:\n%s", h, id, errOut)
			}
		}
		noStep(t, onlyRun(t, other), "backup")
		t.Logf("the second sweep, refused:\n%s", lastLines(errOut, 5))
		locksHeldBy(t, f.lab, id)
	})
	t.Run("RestoreOfTheLiveRunIsRefused", func(t *testing.T) {
		_, errOut, err := f.benchbed(t, "restore", run)
		if exitCode(err) != 1 || !strings.Contains(errOut, "the sweep of run "+id+" is still running (pid ") {
			t.Fatalf("benchbed restore of the run still sweeping: %v, want exit 1 naming it:\n%s", err, errOut)
		}
		locksHeldBy(t, f.lab, id)
	})
	waitFaultsApplied(t, runs, 3, out, ended)
	cmd.Process.Kill() // SIGKILL: no undo runs
	<-ended
	partitionLeft(t, f.lab)
	if after := hostFiles(t, f.lab); equalFiles(after, f.before) {
		t.Fatalf("the killed sweep left no change to restore: the test proves nothing\n%v", after)
	}
	locksHeldBy(t, f.lab, id)
	out2, errOut, err := f.benchbed(t, "restore", run)
	if err != nil || !strings.Contains(out2, "restored: "+run) {
		t.Fatalf("benchbed restore %s: %v\nstdout:\n%s\nstderr:\n%s", run, err, out2, errOut)
	}
	if !strings.Contains(out2+errOut, "undoing pause fault") {
		t.Errorf("the restore did not say it undid the pause:\n%s\n%s", out2, errOut)
	}
	labAsBefore(t, f, swiftHosts...)
	noFaultLeft(t, f.lab)
	if ps := nsProcs(t, "client1", " agent"); len(ps) > 0 {
		t.Errorf("load agents left on client1 after the sweep was killed: %v", ps)
	}
}

// testCannotStart sweeps paused (a fault cell: checkPausedRecovers),
// cannot_start (object servers exit at once) and servers_per_port=1: the
// paused cell's journal follows the plan (it is plan's first cell); the
// cannot_start cell fails naming a host and object-server, with the
// server's log kept; the third runs; the sweep exits 1 and the lab is
// restored.
func testCannotStart(t *testing.T, f *fault) {
	runs := f.runs(t, "cannot-start")
	out, errOut, err := f.benchbed(t, "sweep", "--runs-dir", runs, "--only", "paused", "--only", "cannot_start", "--only", "servers_per_port=1", f.tb)
	if exitCode(err) != 1 {
		t.Fatalf("sweep with a variant that cannot start: %v, want exit 1\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	run := onlyRun(t, runs)
	logStepTimes(t, run)
	sum := readSummary(t, run)
	if len(sum.Cells) != 3 {
		t.Fatalf("%s has %d cells, want 3: %+v", rundir.SummaryFile, len(sum.Cells), sum.Cells)
	}
	t.Run("PausedRecovers", func(t *testing.T) {
		checkJournalFollowsPlan(t, f.lab, f.tb, run)
		rr, err := rundir.ReadRun(run)
		must(t, err)
		checkPausedRecovers(t, f.lab, rr, rr.Summary.Cells[0])
	})
	bad, good := sum.Cells[1], sum.Cells[2]
	hostSvc := regexp.MustCompile(`stor[12]: \S*\s*object-server`)
	if bad.Variant != "cannot_start" || bad.Status != "failed" || !hostSvc.MatchString(bad.Error) {
		t.Errorf("cell cannot_start: status %q, error %q; want failed, naming a host and object-server", bad.Status, bad.Error)
	}
	t.Logf("cell %s: %s", bad.ID, bad.Error)
	if !strings.Contains(bad.Error, "many") {
		t.Errorf("cell cannot_start's error does not give the server's own reason (its log's end):\n%s", bad.Error)
	}
	if good.Variant != "servers_per_port=1" || good.Status != "ok" || good.Total.Count == 0 {
		t.Errorf("the cell after the failed one: %s %s, %d ok", good.Variant, good.Status, good.Total.Count)
	}
	if !strings.Contains(errOut, "cell "+bad.ID+" failed") {
		t.Errorf("the sweep does not say which cell failed:\n%s", errOut)
	}
	logs, _ := filepath.Glob(filepath.Join(run, rundir.CellsDir, bad.ID, rundir.LogsDir, "stor*-object-server.log"))
	if len(logs) == 0 {
		t.Fatalf("no object-server log kept in cells/%s/logs", bad.ID)
	}
	if b, _ := os.ReadFile(logs[0]); !strings.Contains(string(b), "many") {
		t.Errorf("%s does not show why the server exited:\n%s", logs[0], b)
	}
	labAsBefore(t, f, swiftHosts...)
}

// testHostLost sweeps slow_disk then servers_per_port=1, PUTs on stor1's
// disks put on loop devices (slowDiskTestbed), and kills every sshd of
// stor2 while the second cell runs: the first is checked as a slow disk's
// cell (SlowDiskPUTCell: checkSlowDisk); the sweep exits 1 naming stor2,
// restores the other hosts (files and healthy servers), says that
// `benchbed restore` is left to do; once stor2 is back, a new sweep is
// refused by the copies left there (even with --break-lock), and that
// restore brings the whole lab back.
func testHostLost(t *testing.T, f *fault) {
	devs := loopDisks(t, f.lab)
	tb := slowDiskTestbed(t, f, devs)
	runs := f.runs(t, "host-lost")
	stop := make(chan struct{})
	seen := make(chan throttleSeen, 1)
	go func() { seen <- watchThrottle(t, f.lab, devs[0], stop) }()
	_, out, ended := f.start(t, "sweep", "--runs-dir", runs, "--only", "slow_disk", "--only", "servers_per_port=1", tb)
	run := waitRuns(t, runs, 2, 5*time.Minute, out, ended)
	close(stop)
	th := <-seen
	killSSHD(t, "stor2")
	defer bringBack(t)
	err := waitEnd(t, ended, out, 5*time.Minute)
	text := out.String()
	logStepTimes(t, run)
	t.Run("SlowDiskPUTCell", func(t *testing.T) { checkSlowDisk(t, f.lab, run, th) })
	if exitCode(err) != 1 {
		t.Fatalf("sweep that lost stor2: %v, want exit 1:\n%s", err, text)
	}
	if !strings.Contains(text, "stor2: ") || !strings.Contains(text, "benchbed restore "+run) {
		t.Errorf("the sweep does not name stor2 and say that `benchbed restore %s` is left:\n%s", run, text)
	}
	t.Logf("the sweep that lost stor2 ends with:\n%s", lastLines(text, 8))
	labAsBefore(t, f, "proxy1", "stor1")
	bringBack(t)
	t.Run("ANewSweepIsRefusedByTheCopiesLeft", func(t *testing.T) {
		// --break-lock passes stor2's lock; its copies of the originals
		// still refuse the sweep, before any cell.
		other := f.runs(t, "after-host-lost")
		_, errOut, err := f.benchbed(t, "sweep", "--runs-dir", other, "--break-lock", "--only", "normal", f.tb)
		if exitCode(err) != 1 || !strings.Contains(errOut, "stor2: a sweep's copy (.benchbed-sweep-orig) of /etc/swift/") ||
			strings.Contains(errOut, "stor1: a sweep's copy") {
			t.Fatalf("a new sweep over stor2's unrestored files: %v, want exit 1 naming stor2's copies:\n%s", err, errOut)
		}
		t.Logf("the new sweep, refused:\n%s", lastLines(errOut, 2))
		noStep(t, onlyRun(t, other), "ring-ports")
		labAsBefore(t, f, "proxy1", "stor1")
	})
	out2, errOut, err := f.benchbed(t, "restore", run)
	if err != nil || !strings.Contains(out2, "restored: "+run) {
		t.Fatalf("benchbed restore %s with stor2 back: %v\nstdout:\n%s\nstderr:\n%s", run, err, out2, errOut)
	}
	labAsBefore(t, f, swiftHosts...)
}
