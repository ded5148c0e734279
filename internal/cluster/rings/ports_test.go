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
	setup := fmt.Sprintf("set -e; swift-ring-builder %[1]s create 6 2 0; for i in 0 1 2 3; do "+
		"swift-ring-builder %[1]s add r1z1-198.18.0.21:6200/d$i 100; swift-ring-builder %[1]s add r1z2-198.18.0.22:6200/d$i 100; done; "+
		"swift-ring-builder %[1]s rebalance; swift-ring-builder %[1]s write_ring", b)
	if out, err := exec.Command("bash", "-c", setup).CombinedOutput(); err != nil {
		t.Fatalf("making a builder: %v\n%s", err, out)
	}
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
	for _, name := range []string{"object", "container"} {
		setup := fmt.Sprintf("set -e; b=%s; swift-ring-builder $b create 4 1 0; swift-ring-builder $b add r1z1-198.18.0.21:6201/d0 100; "+
			"swift-ring-builder $b rebalance; swift-ring-builder $b write_ring", BuilderPath(dir, name))
		if out, err := exec.Command("bash", "-c", setup).CombinedOutput(); err != nil {
			t.Fatalf("making a builder: %v\n%s", err, out)
		}
	}
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
