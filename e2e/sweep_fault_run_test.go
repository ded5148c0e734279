package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"benchbed/results"
	"benchbed/results/rundir"
)

// start runs the CLI in the background; ended gets its end.
func (f *fault) start(t *testing.T, args ...string) (*exec.Cmd, *syncBuffer, chan error) {
	t.Helper()
	cmd := exec.Command(f.lab.binary(t), args...)
	cmd.Dir = f.lab.Root
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		f.keep(out.String())
	})
	return cmd, out, ended
}

// waitMeasuring waits until the sweep under runs has started its first
// measured run (its cell's confs and ring ports are in place) and returns
// the run directory.
func waitMeasuring(t *testing.T, runs string, out *syncBuffer, ended chan error) string {
	t.Helper()
	return waitRuns(t, runs, 1, 5*time.Minute, out, ended)
}

// waitEnd waits for a background command, at most d.
func waitEnd(t *testing.T, ended chan error, out *syncBuffer, d time.Duration) error {
	t.Helper()
	select {
	case err := <-ended:
		checkNoPanic(t, out.String())
		return err
	case <-time.After(d):
		t.Fatalf("still running after %s:\n%s", d, out.String())
		return nil
	}
}

// exitCode is a finished command's exit status (0 for nil).
func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

func checkNoPanic(t *testing.T, out string) {
	t.Helper()
	if strings.Contains(out, "panic:") || strings.Contains(out, "goroutine ") {
		t.Errorf("benchbed panicked:\n%s", out)
	}
}

// faultTestbed writes lab.hcl with 6 s runs of 8 users, a 1 s warm-up,
// 200 initial objects, and three more variants: paused first (plan's
// first cell: a fault from 2 s to 4 s), cannot_start, whose object
// servers exit at once (workers is not a number), declared between normal
// and servers_per_port, and killed last (servers_per_port=1 with faults
// to the end of the run).
func faultTestbed(t *testing.T, lab *Env, dir string) string {
	t.Helper()
	return labTestbed(t, lab, dir, 200, 6, []labEdit{
		{`(?m)^(\s*duration\s*=\s*)"[^"]*"`, `${1}"6s"`},
		{`(?m)^(\s*users\s*=\s*)\d+`, `${1}8`},
		{`(?m)^(\s*warmup\s*=\s*)"[^"]*"`, `${1}"1s"`},
		{`(?m)^variant "normal" \{\}`, pausedVariant + "$0"},
		// workers = "many" makes the object servers exit at once; validate
		// refuses the value unless the variant leaves it unchecked.
		{`(?m)^variant "threads_per_disk" \{`, "variant \"cannot_start\" {\n  unchecked = [\"workers\"]\n  set \"object-server\" {\n" +
			"    DEFAULT = { workers = \"many\" }\n  }\n}\n\n$0"},
		{`(?s)(variant "servers_per_port" \{.*?ring "object" \{ port_per_disk = true \}\n\})`, "$1" + killedVariant},
	})
}

// noStep wants run's journal without any of steps, and no backup.json
// unless it was refused in the backup step.
func noStep(t *testing.T, run string, steps ...string) {
	t.Helper()
	r, err := rundir.Open(run, "lab")
	must(t, err)
	es, err := r.ReadJournal()
	must(t, err)
	if len(es) == 0 {
		t.Fatalf("%s: empty journal", run)
	}
	for _, e := range es {
		if slices.Contains(steps, e.Step) {
			t.Errorf("%s: journal has step %s (%s %s), want none of %v", run, e.Step, e.Status, e.Detail, steps)
		}
	}
	if _, err := os.Stat(filepath.Join(run, rundir.BackupFile)); err == nil && slices.Contains(steps, "backup") {
		t.Errorf("%s: a refused sweep took a backup", run)
	}
}

func readSummary(t *testing.T, run string) results.Summary {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(run, rundir.SummaryFile))
	must(t, err)
	var s results.Summary
	must(t, json.Unmarshal(b, &s))
	return s
}

// lastLines is the end of a command's output, for the test's log.
func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(l[max(0, len(l)-n):], "\n")
}

// withDuration writes a copy of the fault testbed, beside it, whose
// workload runs for d.
func (f *fault) withDuration(t *testing.T, name, d string) string {
	t.Helper()
	return f.edited(t, name, []labEdit{{`(?m)^(\s*duration\s*=\s*)"[^"]*"`, `${1}"` + d + `"`}})
}

// edited writes a copy of the fault testbed, beside it, with edits; an
// edit that no longer matches fails the test.
func (f *fault) edited(t *testing.T, name string, edits []labEdit) string {
	t.Helper()
	b, err := os.ReadFile(f.tb)
	must(t, err)
	p := filepath.Join(f.dir, name)
	must(t, os.WriteFile(p, []byte(applyEdits(t, f.tb, string(b), edits)), 0o644))
	return p
}
