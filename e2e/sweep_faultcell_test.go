package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchbed/results"
	"benchbed/results/rundir"
)

// pausedVariant is the fault testbed's first variant (plan's first cell,
// whose journal checkJournalFollowsPlan compares): stor1's object server
// paused (SIGSTOP) from 2 s to 4 s of a 6 s run, then resumed.
const pausedVariant = `variant "paused" {
  fault "pause" {
    hosts   = ["stor1"]
    service = "object-server"
    at      = 2
    for     = "2s"
  }
}

`

// killedVariant is servers_per_port=1 (its confs and ring ports change)
// with faults that last to the end of the run (stor1's object server
// paused, stor2's object ports dropped, proxy1's link slowed), from 2 s:
// the sweep TestFault kills mid-cell leaves changed files, held locks and
// three applied faults for one `benchbed restore` to undo.
const killedVariant = `

variant "killed" {
  set "object-server" {
    DEFAULT = { workers = 1, servers_per_port = 1 }
  }
  ring "object" { port_per_disk = true }
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

// checkPausedRecovers checks the paused cell c of run: ok, its before,
// during and after phases each with requests, its recovery logged (not
// gated: the lab is shared), one fault applied then undone in faults.json,
// and no fault left on the hosts.
func checkPausedRecovers(t *testing.T, lab *Env, rr *rundir.RunResults, c results.Cell) {
	t.Helper()
	if c.Variant != "paused" || c.Status != results.StatusOK || c.Fault == nil {
		t.Fatalf("cell %s (%s): status %s (%s), fault %v; want paused, ok, with its phases", c.ID, c.Variant, c.Status, c.Error, c.Fault)
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

// waitFaultsApplied waits until the one cell of the sweep under runs has
// n faults applied (its faults.json says so) and returns the run directory.
func waitFaultsApplied(t *testing.T, runs string, n int, out *syncBuffer, ended chan error) string {
	t.Helper()
	for deadline := time.Now().Add(4 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
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
		if applied == n {
			return filepath.Dir(filepath.Dir(cells[0]))
		}
	}
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

// partitionLeft wants stor2's partition rule still there after the sweep
// was SIGKILLed: otherwise the kill came too late to test the restore.
func partitionLeft(t *testing.T, lab *Env) {
	t.Helper()
	if got, _ := lab.SSH(t, "stor2", "nft list tables 2>/dev/null; iptables -S 2>/dev/null | grep -c BB-"); !strings.Contains(got, "benchbed_") && !strings.Contains(got, "BB-") {
		t.Errorf("stor2 after the kill: no partition rule (%q): the kill came too late to test the restore", got)
	}
}
