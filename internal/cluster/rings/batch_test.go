package rings

import (
	"benchbed/internal/cluster"
	"os/exec"
	"strings"
	"testing"

	"benchbed/internal/labtest"
	"benchbed/plan"
)

// batchCmds are planRing's commands for r from nothing to devs, as the
// batch gets them.
func batchCmds(t *testing.T, dir string, r *plan.Ring, devs []ringDev) []ringCmd {
	t.Helper()
	c, err := planRing(dir, r, nil, devs)
	if err != nil {
		t.Fatal(err)
	}
	var out []ringCmd
	for _, a := range c.Args {
		out = append(out, ringCmd{ring: r, args: a})
	}
	return out
}

// runBatch runs ringBatchScript(cmds) with this machine's Swift and reads
// its result as runRingCmds does.
func runBatch(t *testing.T, cmds []ringCmd) (int, *cluster.Report, error) {
	t.Helper()
	script, err := ringBatchScript(cmds)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("bash", "-c", script).Output()
	if err != nil {
		t.Fatalf("the batch: %v\n%s", err, out)
	}
	rep := cluster.NewReport([]string{"proxy1"})
	done, err := ringBatchResult("proxy1", cmds, string(out), rep)
	return done, rep, err
}

// TestRingBatchBuildsWhatOneByOneBuilds: a new ring's commands in one
// Python process give the builder and ring that one swift-ring-builder
// process each gives (the same dump), every status 0.
func TestRingBatchBuildsWhatOneByOneBuilds(t *testing.T) {
	labtest.NeedTools(t, "swift-ring-builder", "/usr/bin/python3")
	r := testRing()
	batchDir, oneDir := t.TempDir(), t.TempDir()
	cmds := batchCmds(t, batchDir, r, wantDevs(3))
	done, _, err := runBatch(t, cmds)
	if err != nil || done != len(cmds) {
		t.Fatalf("batch: %d of %d done, %v", done, len(cmds), err)
	}
	for _, c := range batchCmds(t, oneDir, r, wantDevs(3)) {
		if out, err := exec.Command("swift-ring-builder", c.args...).CombinedOutput(); err != nil {
			t.Fatalf("swift-ring-builder %v: %v\n%s", c.args, err, out)
		}
	}
	batch, _ := exec.Command("bash", "-c", dumpAllScript(batchDir, []string{"object"})).Output()
	one, _ := exec.Command("bash", "-c", dumpAllScript(oneDir, []string{"object"})).Output()
	s, err := parseDump(string(batch))
	if err != nil || s == nil || len(s.Devs) != 3 || !s.RingCurrent || string(batch) != string(one) {
		t.Errorf("batch built %s (%v), one by one %s", batch, err, one)
	}
}

// TestRingBatchStopsAtAFailure: a command that fails ends the batch with
// an error naming the host, the ring, the command and its status; the
// commands before it are done, none after it runs.
func TestRingBatchStopsAtAFailure(t *testing.T) {
	labtest.NeedTools(t, "swift-ring-builder", "/usr/bin/python3")
	r := testRing()
	cmds := batchCmds(t, t.TempDir(), r, wantDevs(1))
	b := cmds[0].args[0]
	bad := []ringCmd{cmds[0], cmds[1], {ring: r, args: []string{b, "set_weight", "d9", "50", "--yes"}}, cmds[2], cmds[3]}
	done, _, err := runBatch(t, bad)
	if done != 2 || err == nil || !strings.Contains(err.Error(), "ring object: proxy1: swift-ring-builder "+b+" set_weight d9 50 --yes: exit status ") {
		t.Fatalf("a failing set_weight: %d done, %v", done, err)
	}
	if out, _ := exec.Command("bash", "-c", dumpAllScript(strings.TrimSuffix(b, "/object.builder"), []string{"object"})).Output(); !strings.Contains(string(out), `"ring_file": false`) {
		t.Errorf("the commands after the failure ran (a ring file was written): %s", out)
	}
}

// TestRingBatchResultReadsStatuses: a rebalance's warning (status 1) is
// reported and the batch goes on; output without every status is an
// error that says how many ran.
func TestRingBatchResultReadsStatuses(t *testing.T) {
	r := testRing()
	cmds := []ringCmd{{r, []string{"/etc/swift/object.builder", "rebalance"}}, {r, []string{"/etc/swift/object.builder", "write_ring"}}}
	rep := cluster.NewReport([]string{"proxy1"})
	out := "No partitions could be reassigned.\nbenchbed-ring 1 1\nbenchbed-ring 2 0\n"
	if done, err := ringBatchResult("proxy1", cmds, out, rep); done != 2 || err != nil {
		t.Fatalf("a warned rebalance: %d done, %v", done, err)
	}
	if ch := rep.Changes("proxy1"); len(ch) != 1 || !strings.Contains(ch[0], "rebalance warned (min_part_hours 1): No partitions could be reassigned.") {
		t.Errorf("the warning is not reported: %q", ch)
	}
	done, err := ringBatchResult("proxy1", cmds, "benchbed-ring 1 0\nTraceback: killed\n", cluster.NewReport(nil))
	if done != 1 || err == nil || !strings.Contains(err.Error(), "1 of 2 commands ran: Traceback: killed") {
		t.Errorf("a batch cut short: %d done, %v", done, err)
	}
}
