package faults

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchbed/plan"
)

// needRoot skips, loudly, a test that changes kernel state.
func needRoot(t *testing.T, cmds ...string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("SKIP (loud): needs root to apply faults inside a test namespace, loop device or cgroup")
	}
	for _, c := range cmds {
		if _, err := exec.LookPath(c); err != nil {
			t.Skipf("SKIP (loud): %s is not installed (scripts/deps.sh installs it)", c)
		}
	}
}

// sh runs script with /bin/sh (inside network namespace ns unless ""),
// returning its output and whether it exited 0.
func sh(t *testing.T, ns, script string) (string, bool) {
	t.Helper()
	args := []string{"sh", "-c", script}
	if ns != "" {
		args = append([]string{"ip", "netns", "exec", ns}, args...)
	}
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	return string(out), err == nil
}

// must runs script and fails t unless it exits 0.
func must(t *testing.T, ns, what, script string) string {
	t.Helper()
	out, ok := sh(t, ns, script)
	if !ok {
		t.Fatalf("%s failed:\n%s", what, out)
	}
	return out
}

// lifecycle runs probe and apply, checks that Check fails while applied,
// then undo twice and Check, which must pass.
func lifecycle(t *testing.T, ns string, s Scripts, applied func()) {
	t.Helper()
	must(t, ns, "probe", s.Probe)
	must(t, ns, "check before apply", s.Check)
	must(t, ns, "apply", s.Apply)
	// A signal takes effect once its process next runs (a SIGSTOP's stop,
	// a SIGKILL's exit), which a loaded machine may delay past the check's
	// start: the check is asked again until it fails, for 2 minutes at most
	// (a hang guard: a fault that never takes effect fails here).
	out, ok := sh(t, ns, s.Check)
	for hang := time.Now().Add(2 * time.Minute); ok && time.Now().Before(hang); out, ok = sh(t, ns, s.Check) {
		time.Sleep(50 * time.Millisecond)
	}
	if ok {
		t.Errorf("check passes while the fault is applied: %s", out)
	} else if !strings.Contains(out, "stor1: ") {
		t.Errorf("check does not name the host: %s", out)
	}
	if applied != nil {
		applied()
	}
	must(t, ns, "undo", s.Undo)
	must(t, ns, "undo again", s.Undo)
	must(t, ns, "check after undo", s.Check)
}

// netns makes two network namespaces joined by a veth pair, 198.18.250.1
// and .2 (nothing in this machine's own namespace), removed at the end.
func netns(t *testing.T) (a, b string) {
	t.Helper()
	a, b = fmt.Sprintf("bbfa%d", os.Getpid()), fmt.Sprintf("bbfb%d", os.Getpid())
	t.Cleanup(func() {
		_ = exec.Command("ip", "netns", "del", a).Run()
		_ = exec.Command("ip", "netns", "del", b).Run()
	})
	for _, c := range [][]string{
		{"ip", "netns", "add", a}, {"ip", "netns", "add", b},
		{"ip", "-n", a, "link", "add", "va", "type", "veth", "peer", "name", "vb", "netns", b},
		{"ip", "-n", a, "addr", "add", "198.18.250.1/30", "dev", "va"}, {"ip", "-n", b, "addr", "add", "198.18.250.2/30", "dev", "vb"},
		{"ip", "-n", a, "link", "set", "va", "up"}, {"ip", "-n", b, "link", "set", "vb", "up"},
		{"ip", "-n", a, "link", "set", "lo", "up"}, {"ip", "-n", b, "link", "set", "lo", "up"},
	} {
		if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v %s", c, err, out)
		}
	}
	return a, b
}

func TestSlowLinkInANetns(t *testing.T) {
	needRoot(t, "ip", "tc")
	a, _ := netns(t)
	s, err := Build(Target{ID: "f0-stor1", Host: "stor1", Address: "198.18.250.1", Fault: &plan.Fault{Kind: plan.FaultSlowLink, Rate: "8mbit"}})
	if err != nil {
		t.Fatal(err)
	}
	lifecycle(t, a, s, func() {
		out := must(t, a, "tc show", "tc qdisc show dev va")
		if !strings.Contains(out, "qdisc tbf 1:") || !strings.Contains(out, "rate 8Mbit") {
			t.Errorf("no tbf on va:\n%s", out)
		}
	})
	if out := must(t, a, "tc show", "tc qdisc show dev va"); strings.Contains(out, "tbf") {
		t.Errorf("qdiscs left after undo:\n%s", out)
	}
}

// partitionCase applies a partition in namespace a and checks, from b,
// that a TCP port of a is unreachable while it lasts and reachable after.
func partitionCase(t *testing.T, path string, rules string) {
	a, b := netns(t)
	srv := exec.Command("ip", "netns", "exec", a, "python3", "-m", "http.server", "6200", "--bind", "198.18.250.1")
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Process.Kill(); _ = srv.Wait() })
	// Tried until it connects, for 2 minutes at least (python3's http.server
	// starts late on a loaded machine; a hang guard, not a deadline).
	reach := "for i in $(seq 400); do python3 -c 'import socket; socket.create_connection((\"198.18.250.1\", 6200), 1)' 2>/dev/null && exit 0; sleep 0.3; done; exit 1"
	must(t, b, "connect before the partition", reach)
	s, err := Build(Target{ID: "f1-stor1", Host: "stor1", Fault: &plan.Fault{Kind: plan.FaultPartition}, Ports: []int{6200, 6201}})
	if err != nil {
		t.Fatal(err)
	}
	s.Apply, s.Undo, s.Check = path+s.Apply, path+s.Undo, path+s.Check
	lifecycle(t, a, s, func() {
		if out := must(t, a, "list rules", rules); !strings.Contains(out, "6200") {
			t.Errorf("no rule for port 6200:\n%s", out)
		}
		if _, ok := sh(t, b, "python3 -c 'import socket; socket.create_connection((\"198.18.250.1\", 6200), 2)'"); ok {
			t.Error("port 6200 answered through the partition")
		}
	})
	must(t, b, "connect after the partition", reach)
}

func TestPartitionWithNftInANetns(t *testing.T) {
	needRoot(t, "ip", "nft", "python3")
	partitionCase(t, "", "nft list table inet benchbed_f1_stor1")
}

func TestPartitionWithIptablesInANetns(t *testing.T) {
	needRoot(t, "ip", "iptables", "python3")
	bin := t.TempDir() // a PATH with iptables and without nft
	for _, c := range []string{"iptables", "ip"} {
		p, _ := exec.LookPath(c)
		if err := os.Symlink(p, filepath.Join(bin, c)); err != nil {
			t.Fatal(err)
		}
	}
	partitionCase(t, "PATH="+bin+":/usr/bin:/bin\n", "PATH="+bin+":/usr/bin:/bin; iptables -S BB-f1-stor1")
}
