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

// faultCellVariants replace the lab's variants: a paused object server
// (stor1's, SIGSTOP from 4 s to 8 s of a 14 s run) that recovers, and a
// cell whose faults last to the end (stor1's object server paused,
// stor2's object ports dropped, proxy1's link slowed), which the test
// kills mid-fault.
const faultCellVariants = `variant "paused" {
  fault "pause" {
    hosts   = ["stor1"]
    service = "object-server"
    at      = 4
    for     = "4s"
  }
}

variant "killed" {
  fault "pause" {
    hosts   = ["stor1"]
    service = "object-server"
    at      = 2
    for     = "end"
  }
  fault "partition" {
    hosts   = ["stor2"]
    service = "object-server"
    at      = 2
    for     = "end"
  }
  fault "slow_link" {
    hosts = ["proxy1"]
    rate  = "10mbit"
    at    = 2
    for   = "end"
  }
}
`

// TestFaultCells: (a) a sweep of a paused object server cell: the cell
// is ok, has its before, during and after phases and a recovery, and its
// journal follows the plan; (b) a sweep SIGKILLed while three faults are
// applied, then `benchbed restore RUN`: on the hosts no process is left
// stopped, no nft table or iptables chain, no tbf qdisc, no fault state.
func TestFaultCells(t *testing.T) {
	lab := Lab(t)
	began := time.Now() // the test's own time: the lab's bring-up is the binary's
	tb := labTestbed(t, lab, t.TempDir(), 200, 14, []labEdit{
		{`(?m)^(\s*duration\s*=\s*)"[^"]*"`, `${1}"14s"`},
		{`(?m)^(\s*users\s*=\s*)\d+`, `${1}8`},
		{`(?m)^(\s*warmup\s*=\s*)"[^"]*"`, `${1}"1s"`},
		{`(?s)variant "normal" \{\}\n.*?ring "object" \{ port_per_disk = true \}\n\}\n`, faultCellVariants},
	})
	if out, errOut, err := lab.Benchbed(t, "setup", "-q", tb); err != nil {
		t.Fatalf("benchbed setup: %v\n%s\n%s", err, out, errOut)
	}
	t.Run("PausedRecovers", func(t *testing.T) { testPausedRecovers(t, lab, tb) })
	t.Run("KilledThenRestore", func(t *testing.T) { testFaultKilledThenRestore(t, lab, tb) })
	t.Logf("TestFaultCells took %.0f s", time.Since(began).Seconds())
}

func testPausedRecovers(t *testing.T, lab *Env, tb string) {
	runs := t.TempDir()
	out, errOut, err := lab.Benchbed(t, "sweep", "--runs-dir", runs, "--only", "paused", tb)
	if err != nil {
		t.Fatalf("sweep: %v\n%s\n%s", err, out, errOut)
	}
	dirs, _ := filepath.Glob(filepath.Join(runs, "*", "*"))
	if len(dirs) != 1 {
		t.Fatalf("runs %v, want one", dirs)
	}
	checkJournalFollowsPlan(t, lab, tb, dirs[0])
	rr, err := rundir.ReadRun(dirs[0])
	must(t, err)
	if len(rr.Summary.Cells) != 1 {
		t.Fatalf("cells %d, want 1", len(rr.Summary.Cells))
	}
	c := rr.Summary.Cells[0]
	if c.Status != results.StatusOK || c.Fault == nil {
		t.Fatalf("cell %s: status %s (%s), fault %v", c.ID, c.Status, c.Error, c.Fault)
	}
	for _, p := range []string{results.PhaseBefore, results.PhaseDuring, results.PhaseAfter} {
		ph := c.Fault.Phase(p)
		if ph == nil || ph.Total.Count == 0 {
			t.Errorf("cell %s: phase %s missing or empty: %+v", c.ID, p, ph)
			continue
		}
		t.Logf("%-6s %5.1f-%5.1f s  %7.1f req/s  p99 %.1f ms  errors %d", p, ph.StartS, ph.EndS, ph.Total.ReqPerS, ph.Total.LastByte.P99*1000, ph.Total.Errors)
	}
	if !c.Fault.Recovery.Recovered {
		t.Logf("cell %s: %s (not gated: the lab is shared)", c.ID, c.Fault.Recovery.Text())
	} else {
		t.Logf("cell %s: recovered %s", c.ID, c.Fault.Recovery.Text())
	}
	recs, err := rundir.ReadFaults(rr.CellDir(&c))
	must(t, err)
	if len(recs) != 1 || recs[0].AppliedS <= 0 || recs[0].UndoneS <= recs[0].AppliedS {
		t.Errorf("faults.json %+v, want one fault applied then undone", recs)
	}
	noFaultLeft(t, lab)
}

func testFaultKilledThenRestore(t *testing.T, lab *Env, tb string) {
	runs := t.TempDir()
	cmd := exec.Command(lab.binary(t), "sweep", "--runs-dir", runs, "--only", "killed", tb)
	cmd.Dir = lab.Root
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	must(t, cmd.Start())
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	run := ""
	for deadline := time.Now().Add(4 * time.Minute); run == ""; time.Sleep(200 * time.Millisecond) {
		select {
		case err := <-ended:
			t.Fatalf("the sweep ended (%v) before its faults were applied:\n%s", err, out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the faults were never applied:\n%s", out.String())
		}
		cells, _ := filepath.Glob(filepath.Join(runs, "*", "*", rundir.CellsDir, "*"))
		if len(cells) != 1 {
			continue
		}
		recs, _ := rundir.ReadFaults(cells[0])
		applied := 0
		for _, r := range recs {
			if r.AppliedS > 0 {
				applied++
			}
		}
		if applied == 3 {
			run = filepath.Dir(filepath.Dir(cells[0]))
		}
	}
	must(t, cmd.Process.Kill()) // SIGKILL: no undo runs
	<-ended
	if got, _ := lab.SSH(t, "stor2", "nft list tables 2>/dev/null; iptables -S 2>/dev/null | grep -c BB-"); !strings.Contains(got, "benchbed_") && !strings.Contains(got, "BB-") {
		t.Errorf("stor2 after the kill: no partition rule (%q): the kill came too late to test the restore", got)
	}
	rout, rerr, err := lab.Benchbed(t, "restore", run)
	if err != nil {
		t.Fatalf("restore: %v\n%s\n%s\nsweep:\n%s", err, rout, rerr, out.String())
	}
	if !strings.Contains(rout+rerr, "undoing pause fault") {
		t.Errorf("the restore did not say it undid the pause:\n%s\n%s", rout, rerr)
	}
	noFaultLeft(t, lab)
}

// noFaultLeft checks on the hosts that no fault of the test is left: no
// Swift process stopped (state T) on stor1, no nft table or iptables
// chain of benchbed on stor2, no tbf qdisc on proxy1, no fault state
// file on any of them.
func noFaultLeft(t *testing.T, lab *Env) {
	t.Helper()
	checks := map[string]string{
		"stor1":  `for f in /var/run/swift/*.pid; do g=$(cat "$f"); ps -o stat=,args= -g "$g" | awk -v f="$f" '$1 ~ /^T/ {print f ": stopped: " $0}'; done`,
		"stor2":  `nft list tables 2>/dev/null | grep benchbed_; iptables -S 2>/dev/null | grep -- '-N BB-'; true`,
		"proxy1": `tc qdisc show | grep '^qdisc tbf'; true`,
	}
	for h, c := range checks {
		got, err := lab.SSH(t, h, c+"; ls -A /var/tmp/benchbed/faults 2>/dev/null; ls -A /var/tmp/benchbed-faults 2>/dev/null; true")
		if err != nil || strings.TrimSpace(got) != "" {
			t.Errorf("%s: a fault is left (%v):\n%s", h, err, got)
		}
	}
}
