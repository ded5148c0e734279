package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// netnsInodes returns the network namespace of every lab host (the
// link's target, e.g. "net:[4026532301]"), so that processes left in a
// deleted namespace can still be found.
func netnsInodes() (map[string]string, error) {
	out := map[string]string{}
	for _, h := range Hosts {
		pid, err := os.ReadFile(filepath.Join(LabDir, "hosts", h, "sshd.pid"))
		if err != nil {
			return nil, fmt.Errorf("%s: sshd pid file: %v", h, err)
		}
		ns, err := os.Readlink("/proc/" + strings.TrimSpace(string(pid)) + "/ns/net")
		if err != nil {
			return nil, fmt.Errorf("%s: sshd's network namespace: %v", h, err)
		}
		out[ns] = h
	}
	return out, nil
}

// downLeavesNothing takes the lab down and returns what of it is left: a
// namespace, link, mount, process or its state directory. Main runs it
// once, at the binary's end.
func downLeavesNothing() []string {
	var left []string
	nets, err := netnsInodes()
	if err != nil {
		left = append(left, err.Error())
	}
	if out, err := script("down"); err != nil {
		return append(left, fmt.Sprintf("lab down: %v\n%s", err, out))
	}
	broughtUp = false
	for _, h := range Hosts {
		if _, err := os.Stat("/run/netns/" + h); err == nil {
			left = append(left, "network namespace "+h+" left")
		}
		if _, err := os.Stat("/sys/class/net/bb-" + h); err == nil {
			left = append(left, "link bb-"+h+" left")
		}
	}
	if _, err := os.Stat("/sys/class/net/bbr0"); err == nil {
		left = append(left, "bridge bbr0 left")
	}
	mounts, err := os.ReadFile("/proc/mounts")
	if err != nil {
		return append(left, err.Error())
	}
	for _, l := range strings.Split(string(mounts), "\n") {
		if strings.Contains(l, "benchbed-lab") || labNetnsMount(l) {
			left = append(left, "mount left: "+l)
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
			left = append(left, fmt.Sprintf("process %s of %s left: %s", filepath.Base(p), h, strings.ReplaceAll(string(cmd), "\x00", " ")))
		}
	}
	if _, err := os.Stat(LabDir); err == nil {
		left = append(left, LabDir+" left")
	}
	return left
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
