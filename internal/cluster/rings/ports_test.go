package rings

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/internal/labtest"
)

// TestSwitchPortsScriptKeepsPartitions runs the port switch on a real
// builder made by Debian's swift-ring-builder: every device moves to its
// own port, the ring file is current, and the partition assignment is the
// same before and after.
func TestSwitchPortsScriptKeepsPartitions(t *testing.T) {
	labtest.NeedTools(t, "swift-ring-builder", "/usr/bin/python3")
	dir := t.TempDir()
	b, ring := filepath.Join(dir, "object.builder"), filepath.Join(dir, "object.ring.gz")
	cmds := [][]string{{b, "create", "6", "2", "0"}}
	for i := 0; i < 4; i++ {
		cmds = append(cmds, []string{b, "add", fmt.Sprintf("r1z1-198.18.0.21:6200/d%d", i), "100"},
			[]string{b, "add", fmt.Sprintf("r1z2-198.18.0.22:6200/d%d", i), "100"})
	}
	srbOnce(t, append(cmds, []string{b, "rebalance"}, []string{b, "write_ring"})...)
	ports := map[string]int{}
	for i := 0; i < 4; i++ {
		ports[fmt.Sprintf("198.18.0.21/d%d", i)] = 6210 + i
		ports[fmt.Sprintf("198.18.0.22/d%d", i)] = 6210 + i
	}
	out, err := exec.Command("bash", "-c", switchPortsScript(b, ring, ports)).Output()
	if err != nil {
		t.Fatalf("switch: %v\n%s", err, out)
	}
	var res struct {
		Before, After string
		Changed       int
	}
	if err := json.Unmarshal(out, &res); err != nil || res.Changed != 8 || res.Before == "" || res.Before != res.After {
		t.Fatalf("switch result %s (%v): want 8 devices changed and the same assignment", out, err)
	}
	show, err := exec.Command("swift-ring-builder", b).CombinedOutput()
	if err != nil {
		t.Fatalf("swift-ring-builder: %v\n%s", err, show)
	}
	for _, want := range []string{"is up-to-date", "198.18.0.21:6213    198.18.0.21:6213", "198.18.0.22:6210    198.18.0.22:6210"} {
		if !strings.Contains(string(show), want) {
			t.Errorf("builder after the switch lacks %q:\n%s", want, show)
		}
	}
	if strings.Contains(string(show), ":6200") {
		t.Errorf("a device kept port 6200:\n%s", show)
	}
}

// TestDumpAllScriptMatchesOneByOne: the one-process dump of two rings and
// a missing one gives, line by line, what dumpScript gives for each.
func TestDumpAllScriptReadsEveryBuilder(t *testing.T) {
	labtest.NeedTools(t, "swift-ring-builder", "/usr/bin/python3")
	dir := t.TempDir()
	var cmds [][]string
	for _, name := range []string{"object", "container"} {
		b := BuilderPath(dir, name)
		cmds = append(cmds, []string{b, "create", "4", "1", "0"}, []string{b, "add", "r1z1-198.18.0.21:6201/d0", "100"},
			[]string{b, "rebalance"}, []string{b, "write_ring"})
	}
	srbOnce(t, cmds...)
	names := []string{"object", "account", "container"}
	all, err := exec.Command("bash", "-c", dumpAllScript(dir, names)).Output()
	if err != nil {
		t.Fatalf("dump: %v\n%s", err, all)
	}
	lines := strings.Split(strings.TrimSpace(string(all)), "\n")
	if len(lines) != 3 || lines[1] != "null" {
		t.Fatalf("dump of 3 rings (account missing):\n%s", all)
	}
	for _, i := range []int{0, 2} {
		s, err := parseDump(lines[i])
		if err != nil || s == nil || s.PartPower != 4 || s.Replicas != 1 || len(s.Devs) != 1 || s.Devs[0].Port != 6201 ||
			!s.RingFile || !s.RingCurrent || s.DevsChanged {
			t.Errorf("ring %s: %+v (%v) from %q", names[i], s, err, lines[i])
		}
	}
}

// srbOnce runs swift-ring-builder's commands (each an argument list, the
// builder file first) in one Python process (ringBatchScript), as setup
// does: a process each took seconds of the package's time. Every command
// must succeed (exit 0, or 1: a rebalance's warning).
func srbOnce(t *testing.T, args ...[]string) {
	t.Helper()
	var cmds []ringCmd
	for _, a := range args {
		cmds = append(cmds, ringCmd{ring: testRing(), args: a})
	}
	if done, _, err := runBatch(t, cmds); err != nil || done != len(cmds) {
		t.Fatalf("swift-ring-builder: %d of %d commands, %v", done, len(cmds), err)
	}
}
