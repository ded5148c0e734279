package distro

import (
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// checkActive fails t unless every unit setup starts is active.
func checkActive(t *testing.T, lab *Env) {
	t.Helper()
	for h, us := range units {
		out, err := lab.SSH(h, "systemctl is-active "+strings.Join(us, " "))
		if err != nil || strings.Count(out, "active\n") != len(us) || strings.Contains(out, "inactive") {
			t.Errorf("%s: systemctl is-active %v: %v\n%s", h, us, err, out)
		}
	}
}

// snapshot returns the checksums of every file directly in /etc/swift (confs,
// rings, builders) and of /etc/fstab on every service host.
func snapshot(t *testing.T, lab *Env) string {
	t.Helper()
	hosts := make([]string, 0, len(units))
	for h := range units {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	var b strings.Builder
	for _, h := range hosts {
		out, err := lab.SSH(h, "find /etc/swift -maxdepth 1 -type f | sort | xargs sha256sum; sha256sum /etc/fstab")
		if err != nil {
			t.Fatalf("%s: %v\n%s", h, err, out)
		}
		b.WriteString(h + ":\n" + out)
	}
	return b.String()
}

// tableRow returns the cells of the sweep table's row of variant v, or nil.
func tableRow(out, v string) []string {
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "|") {
			continue
		}
		var cells []string
		for _, c := range strings.Split(strings.Trim(l, "|"), "|") {
			cells = append(cells, strings.TrimSpace(c))
		}
		if len(cells) > 1 && cells[0] == v {
			return cells
		}
	}
	return nil
}

// loopsLeft lists the loop devices backed by the lab's files.
func loopsLeft() string {
	out, _ := exec.Command("losetup", "-n", "-O", "NAME,BACK-FILE").Output()
	var left []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, Dir) {
			left = append(left, l)
		}
	}
	return strings.Join(left, "\n")
}
