package importer

import (
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestProbeScriptRunsHere runs the probe on this machine with sh (it only
// reads) and parses its output: the script is valid shell and every part
// it prints reads back.
func TestProbeScriptRunsHere(t *testing.T) {
	if _, err := exec.LookPath("ps"); err != nil {
		t.Skip("SKIP: no ps on this machine; the probe script is not run")
	}
	out, err := exec.Command("/bin/sh", "-c", probeScript).Output()
	if err != nil {
		t.Fatalf("probe script: %v\n%s", err, out)
	}
	f, err := ParseProbe("here", out)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Addrs) == 0 && f.DevicesDir == "" {
		t.Errorf("nothing read: %+v\n%s", f, out)
	}
	if f.DevicesDir == "" {
		t.Errorf("no devices directory in:\n%s", out)
	}
	t.Logf("version %q, %d confs, %d rings (%s), %d Swift processes", f.Version, len(f.Confs), len(f.Rings), f.RingError, len(f.Procs))
}

// TestRingsPyReadsRealRings makes a builder and its ring with Swift's own
// swift-ring-builder and reads them with the probe's Python: part power,
// replicas, min_part_hours, every device, and the ring file's checksum.
func TestRingsPyReadsRealRings(t *testing.T) {
	if _, err := exec.LookPath("swift-ring-builder"); err != nil {
		t.Skip("SKIP: no swift-ring-builder (Debian's swift package); the probe's ring reading is not run")
	}
	dir := t.TempDir()
	b := filepath.Join(dir, "object.builder")
	script := "set -e; swift-ring-builder " + b + " create 6 2 3 >/dev/null\n" +
		"swift-ring-builder " + b + " add r1z1-127.0.0.2:6200/d0 100 >/dev/null\n" +
		"swift-ring-builder " + b + " add r1z2-127.0.0.3:6210/d1 50 >/dev/null\n" +
		"swift-ring-builder " + b + " rebalance >/dev/null || [ $? -le 1 ]"
	if out, err := exec.Command("/bin/sh", "-c", script).CombinedOutput(); err != nil {
		t.Fatalf("swift-ring-builder: %v\n%s", err, out)
	}
	cmd := exec.Command("/usr/bin/python3", "-", dir)
	cmd.Stdin = strings.NewReader(ringsPy)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ringsPy: %v\n%s", err, out)
	}
	f := &Facts{}
	if err := f.readRings(nonEmptyLines(out)); err != nil {
		t.Fatal(err)
	}
	if len(f.Rings) != 2 {
		t.Fatalf("rings %+v, want the builder and its ring file", f.Rings)
	}
	bl, rf := f.Rings[0], f.Rings[1]
	if bl.Kind != "builder" || bl.PartPower != 6 || bl.Replicas != 2 || bl.MinPartHours != 3 || len(bl.Devs) != 2 {
		t.Errorf("builder %+v", bl)
	}
	if rf.Kind != "ring" || rf.PartPower != 6 || rf.Replicas != 2 || len(rf.Sum) != 32 || devsKey(rf.Devs) != devsKey(bl.Devs) {
		t.Errorf("ring file %+v, builder devices %+v", rf, bl.Devs)
	}
	if d := bl.Devs[1]; d.IP != "127.0.0.3" || d.Port != 6210 || d.Device != "d1" || d.Weight != 50 || d.Zone != 2 {
		t.Errorf("device %+v", d)
	}
}

// TestProbeScriptReadsEveryProcessWhole runs the probe here beside two
// stand-in Swift servers, the first with a backslash escape ('\036', the
// mark's) in its command line: both are read, that command line byte for
// byte, and so is the probe's own shell, whose command line holds the
// same escape. dash's echo turned it into the mark, which ended the
// processes' part there: every process listed after the probe's shell
// (after a wrap of the pid counter, the servers started before it) was
// not read, and the import said a running server ran nowhere.
func TestProbeScriptReadsEveryProcessWhole(t *testing.T) {
	if _, err := exec.LookPath("ps"); err != nil {
		t.Skip("SKIP: no ps on this machine; the probe script is not run")
	}
	conf := `/etc/swift/o\036bject-server.conf`
	fake := func(name string) {
		cmd := &exec.Cmd{Path: "/bin/sh", Args: []string{"/usr/bin/swift-" + name, "-c", "sleep 120; :", conf},
			SysProcAttr: &syscall.SysProcAttr{Setpgid: true}}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Wait() })
	}
	fake("object-server")
	fake("container-server")
	out, err := exec.Command("/bin/sh", "-c", probeScript).Output()
	if err != nil {
		t.Fatalf("probe script: %v\n%s", err, out)
	}
	f, err := ParseProbe("here", out)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range f.Servers() {
		got[s.Name()] = s.Conf
	}
	for _, name := range []string{"object-server", "container-server"} {
		if got[name] != conf {
			t.Errorf("%s: conf %q, want %q (servers read: %v)", name, got[name], conf, got)
		}
	}
	own := false
	for _, p := range f.Procs {
		own = own || strings.Contains(strings.Join(p.Args, " "), `m=$(printf '\036')`)
	}
	if !own {
		t.Errorf("the probe's own shell is not among the processes read, whole: %+v", f.Procs)
	}
}
