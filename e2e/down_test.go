package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// netnsInodes returns the network namespace of every lab host (the
// link's target, e.g. "net:[4026532301]"), so that processes left in a
// deleted namespace can still be found.
func netnsInodes(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, h := range Hosts {
		pid, err := os.ReadFile(filepath.Join(LabDir, "hosts", h, "sshd.pid"))
		if err != nil {
			t.Fatalf("%s: sshd pid file: %v", h, err)
		}
		ns, err := os.Readlink("/proc/" + strings.TrimSpace(string(pid)) + "/ns/net")
		if err != nil {
			t.Fatalf("%s: sshd's network namespace: %v", h, err)
		}
		out[ns] = h
	}
	return out
}

// testDown takes the lab down and checks that no namespace, link, mount or
// process of it is left.
func testDown(t *testing.T, lab *Env) {
	nets := netnsInodes(t)
	if out, err := script("down"); err != nil {
		t.Fatalf("lab down: %v\n%s", err, out)
	}
	broughtUp = false
	for _, h := range Hosts {
		if _, err := os.Stat("/run/netns/" + h); err == nil {
			t.Errorf("network namespace %s left", h)
		}
		if _, err := os.Stat("/sys/class/net/bb-" + h); err == nil {
			t.Errorf("link bb-%s left", h)
		}
	}
	if _, err := os.Stat("/sys/class/net/bbr0"); err == nil {
		t.Error("bridge bbr0 left")
	}
	mounts, err := os.ReadFile("/proc/mounts")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(mounts), "\n") {
		if strings.Contains(l, "benchbed-lab") || labNetnsMount(l) {
			t.Errorf("mount left: %s", l)
		}
	}
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		ns, err := os.Readlink(p + "/ns/net")
		if err != nil {
			continue
		}
		if h, ok := nets[ns]; ok {
			cmd, _ := os.ReadFile(p + "/cmdline")
			t.Errorf("process %s of %s left: %s", filepath.Base(p), h, strings.ReplaceAll(string(cmd), "\x00", " "))
		}
	}
	if _, err := os.Stat(LabDir); err == nil {
		t.Errorf("%s left", LabDir)
	}
}

// labNetnsMount reports whether mount line l is a lab host's network
// namespace (another lab's, testbeds/distro's, may be there too).
func labNetnsMount(l string) bool {
	for _, h := range Hosts {
		if strings.Contains(l, " /run/netns/"+h+" ") {
			return true
		}
	}
	return false
}
