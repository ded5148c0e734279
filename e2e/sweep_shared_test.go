package e2e

import (
	"fmt"
	"sync"
	"testing"
)

// The lab's one measured sweep that TestSweep and TestTelemetry both check:
// normal, servers_per_port=1 and =2 (sweepTestbed: 6 s runs, telemetry on
// with statsd and drop_caches), SIGKILLed in its second cell and resumed,
// so that one run directory is both the resumed sweep's (its first cell
// kept, its table, report and compare) and a sweep's telemetry of three
// cells. Built once per binary, by whichever test asks first; its files
// live as long as the binary.
type labSweep struct {
	tb        string // the testbed, set up once
	before    string // labFiles after its setup, before any sweep
	run       string // the run directory
	first     string // the cell measured before the kill
	out       string // the resume's stdout
	errOut    string // the resume's stderr
	resumeErr error
	after     string // labFiles after the resume
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
// the testbed and the lab's files after that setup. TestSweep's sweeps run
// back to back on it (the interrupted one, then sharedSweep's).
func sweepLab(t *testing.T, lab *Env) (tb, before string) {
	t.Helper()
	sweepLabOnce.Do(func() {
		sweepLabErr = fmt.Errorf("setting up the sweep's testbed failed in %s (see its log)", t.Name())
		tb := sweepTestbed(t, lab, fixtureDir(t))
		if out, errOut, err := lab.Benchbed(t, "setup", "-q", tb); err != nil {
			t.Fatalf("benchbed setup: %v\n%s\n%s", err, out, errOut)
		}
		sweepLabTB, sweepBefore, sweepLabErr = tb, labFiles(t, lab), nil
	})
	if sweepLabErr != nil {
		t.Fatal(sweepLabErr)
	}
	return sweepLabTB, sweepBefore
}

// sharedSweep returns the shared sweep, running it on first use: a sweep
// of sweepOnly SIGKILLed once its second measured run has started, then
// resumed to its end. What it checks is the callers'; a failure to run it
// at all fails every caller.
func sharedSweep(t *testing.T, lab *Env) *labSweep {
	t.Helper()
	sharedOnce.Do(func() {
		sharedErr = fmt.Errorf("the shared sweep failed in %s (see its log)", t.Name())
		tb, before := sweepLab(t, lab)
		runs := fixtureDir(t)
		run := killDuringSecondCell(t, lab, runs, tb)
		s := &labSweep{tb: tb, before: before, run: run, first: runStarts(t, run)[0]}
		s.out, s.errOut, s.resumeErr = lab.Benchbed(t, append([]string{"sweep", "--runs-dir", runs, "--resume", run}, append(sweepOnly, tb)...)...)
		s.after = labFiles(t, lab)
		shared, sharedErr = s, nil
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	if shared.resumeErr != nil {
		t.Fatalf("the shared sweep's resume: %v\nstdout:\n%s\nstderr:\n%s", shared.resumeErr, shared.out, shared.errOut)
	}
	return shared
}
