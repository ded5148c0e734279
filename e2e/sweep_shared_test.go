package e2e

// The lab's sweeps are few and shared: every sweep costs its run-wide
// steps (preflight, lock, backup, prefill, the first cell's restart of
// every server) and its final restore, 20 s and more before and after its
// cells, so a new check goes into a sweep that already runs whenever it
// can. The shared sweeps and how to add to them:
//
//   - sharedSweep (this file): sweepTestbed's normal, threads_per_disk=1
//     and servers_per_port=1 (6 s runs, telemetry on), interrupted
//     (SIGINT) in its second cell, resumed and SIGKILLed in its third,
//     resumed again to its end.
//     TestSweep checks the interrupt, the resumes and the table; TestTelemetry
//     every cell's telemetry. A check of a finished run: a subtest of
//     TestSweep (or a test of its own) that calls sharedSweep(t, lab) and
//     reads s.run (summary.json, cells/, the journal), s.out and s.errOut
//     (the last resume's output). A cell: a variant in sweepTestbed (or a
//     workload: that multiplies the cells, variants x workloads) and its
//     label in sweepOnly and sharedLabels (TestSweep's table, report and
//     compare follow them), then TestTelemetry's cell count (3); the
//     interrupt lands in the second cell and the kill in the third
//     whatever comes after them. The interrupted sweep restores the lab
//     from the second cell: keep it a conf-only variant, since a restore
//     from a servers_per_port or ring-port cell restarts every worker.
//   - TestFault (sweep_fault_test.go, faultTestbed): one setup for every
//     fault case; its sweeps are the killed one (variant killed: ring
//     ports, confs and three faults, SIGKILLed then restored),
//     VariantThatCannotStart's (paused, cannot_start, servers_per_port=1)
//     and HostLostMidSweep's (slowDiskTestbed: stor1's disks on loop
//     devices, a PUT workload; slow_disk, then servers_per_port=1, in
//     whose cell stor2 is lost), none with a setup of its own.
//     A fault cell whose checks need a finished run: a variant in
//     faultTestbed, added to that sweep's --only list, checked in a subtest
//     of testCannotStart (its cells are in declaration order, paused,
//     cannot_start, servers_per_port=1, by index: a variant declared after
//     them comes last, and the cell count there follows); one that needs
//     block devices or PUTs: a variant declared before servers_per_port in
//     slowDiskTestbed, added to HostLostMidSweep's --only list (its sweep
//     waits for the run of the cell that loses stor2 by its number, which
//     follows), checked like checkSlowDisk; one whose checks need a killed
//     sweep and a restore: a fault in killedVariant, checked
//     after the restore (noFaultLeft lists what no host may keep).
//   - TestSweepCapacity: one sweep of normal and sorting_method=timing
//     (a proxy setting alone, so that switching between them reloads only
//     the proxy): the search 64K_get and the repeat = "auto" same on both,
//     the duration = "auto" auto, slow and slow_again on normal only
//     (variants = ["normal"]). A workload added there runs on both
//     variants unless its variants says otherwise: a check of one cell
//     takes variants = ["normal"] (a cell, not two); its cells join
//     normal's before timing's (cells go variant, then workload), so the
//     variant switches stay one before the rounds; prefill it too.
//   - TestSweepPreconditionAndGate: one sweep of two workloads (an ok cell
//     and one that fails the error-rate gate).
//
// Cells are as short as their checks allow (a 1 s warm-up, 6-8 s runs, few
// users and initial objects); no fixed sleep waits for what can be watched
// (the journal's run steps, faults.json). Each test's time is printed at
// the binary's end (labkit.Times): a check added to a sweep shows there.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"benchbed/results/rundir"
)

// labSweep is the shared sweep's run directory and what the tests check
// of each of its three sweeps (the interrupted one, the resume killed in
// its third cell, the resume to the end), built once per binary, by
// whichever test asks first; its files live as long as the binary.
type labSweep struct {
	tb     string      // the testbed, set up once
	before string      // labFiles after its setup, before any sweep
	run    string      // the run directory
	first  string      // the cell measured before the interrupt
	dead   staleHolder // the stale locks the first sweep took over

	intOut     string // the interrupted sweep's stdout and stderr
	intErr     error  // its end (exit 130 wanted)
	intSummary string // summary.json after the interrupt
	intAfter   string // labFiles after the interrupt

	out       string // the last resume's stdout
	errOut    string // the last resume's stderr
	resumeErr error
	after     string // labFiles after the last resume
}

var (
	sweepLabOnce sync.Once
	sweepLabTB   string
	sweepBefore  string
	sweepLabErr  error

	sharedOnce sync.Once
	shared     *labSweep
	sharedErr  error
)

// sweepLab sets the lab up with sweepTestbed once per binary and returns
// the testbed and the lab's files after that setup.
func sweepLab(t *testing.T, lab *Env) (tb, before string) {
	t.Helper()
	sweepLabOnce.Do(func() {
		sweepLabErr = fmt.Errorf("setting up the sweep's testbed failed in %s (see its log)", t.Name())
		tb := sweepTestbed(t, lab, fixtureDir(t))
		setUp(t, lab, tb)
		sweepLabTB, sweepBefore, sweepLabErr = tb, labFiles(t, lab), nil
	})
	if sweepLabErr != nil {
		t.Fatal(sweepLabErr)
	}
	return sweepLabTB, sweepBefore
}

// sharedSweep returns the shared sweep, running it on first use: a sweep
// of sweepOnly over stale locks of a process that is gone, interrupted
// (SIGINT) once its second measured run has started; resumed and
// SIGKILLed once the resume's second measured run (the third cell's) has
// started; resumed again to its end. What it checks is the callers'; a
// failure to run it at all fails every caller.
func sharedSweep(t *testing.T, lab *Env) *labSweep {
	t.Helper()
	sharedOnce.Do(func() {
		sharedErr = fmt.Errorf("the shared sweep failed in %s (see its log)", t.Name())
		tb, before := sweepLab(t, lab)
		s := &labSweep{tb: tb, before: before, dead: writeStaleLocks(t, lab)}
		runs := fixtureDir(t)
		cmd, out, ended := startSweep(t, lab, runs, tb)
		s.run = waitSecondCell(t, runs, out, ended)
		cmd.Process.Signal(os.Interrupt)
		s.intErr = <-ended
		s.intOut = out.String()
		b, _ := os.ReadFile(filepath.Join(s.run, rundir.SummaryFile))
		s.intSummary, s.intAfter, s.first = string(b), labFiles(t, lab), runStarts(t, s.run)[0]
		resume := append([]string{"--resume", s.run}, sweepOnly...)
		// The journal's run steps: the first cell's, the interrupted
		// second's, the resume's second and its third.
		cmd, out, ended = startSweepArgs(t, lab, runs, tb, resume)
		waitRuns(t, runs, 4, 15*time.Minute, out, ended)
		cmd.Process.Kill()
		<-ended
		s.out, s.errOut, s.resumeErr = lab.Benchbed(t, append(append([]string{"sweep", "--runs-dir", runs}, resume...), tb)...)
		s.after = labFiles(t, lab)
		shared, sharedErr = s, nil
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	if shared.resumeErr != nil {
		t.Fatalf("the shared sweep's last resume: %v\nstdout:\n%s\nstderr:\n%s", shared.resumeErr, shared.out, shared.errOut)
	}
	return shared
}

// startSweepArgs starts a sweep of tb under runs with args in the
// background.
func startSweepArgs(t *testing.T, lab *Env, runs, tb string, args []string) (*exec.Cmd, *syncBuffer, chan error) {
	cmd := exec.Command(lab.binary(t), append(append([]string{"sweep", "--runs-dir", runs}, args...), tb)...)
	cmd.Dir = lab.Root
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd, out, ended
}
