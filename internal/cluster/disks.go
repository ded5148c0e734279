package cluster

import (
	"fmt"
	"path"
	"strings"

	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/remote"
)

// devicesRoot is Swift's default devices directory.
const devicesRoot = "/srv/node"

// RingDisks returns host h's disk groups that a ring of one of its roles
// uses: only those disks are prepared.
func RingDisks(tb *plan.Testbed, h *plan.Host) []*plan.DiskGroup {
	var out []*plan.DiskGroup
	seen := map[string]bool{}
	for _, r := range tb.Rings {
		g := h.DiskGroup(r.Disks)
		if g == nil || !h.HasRole(r.Role) || seen[g.Name] {
			continue
		}
		seen[g.Name] = true
		out = append(out, g)
	}
	return out
}

// DisksScript prepares host h's ring disks under root and the directories
// every Swift daemon needs: a directory disk is made and given to the swift
// user; a disk with a device is mounted there (mountScript), persistently,
// and given to the swift user. It prints one line per change.
func DisksScript(tb *plan.Testbed, h *plan.Host, root string) string {
	var b strings.Builder
	b.WriteString("set -e\n" + mountFunctions)
	for _, d := range []string{"/etc/swift", "/var/cache/swift", runDir, logDir, root} {
		fmt.Fprintf(&b, "[ -d %[1]s ] || { mkdir -p %[1]s; echo \"made %[1]s\"; }\n", remote.Quote(d))
	}
	for _, d := range []string{"/var/cache/swift", runDir, logDir} {
		b.WriteString(ownScript(d))
	}
	for _, g := range RingDisks(tb, h) {
		for _, d := range g.Disks {
			p := path.Join(root, d.Name)
			if d.Device != "" {
				b.WriteString(mountScript(d, p))
			} else {
				fmt.Fprintf(&b, "[ -d %[1]s ] || { mkdir -p %[1]s; echo \"made %[1]s\"; }\n", remote.Quote(p))
			}
			b.WriteString(ownScript(p))
		}
	}
	return b.String()
}

// ownScript gives directory p to the swift user when another owns it.
func ownScript(p string) string {
	return fmt.Sprintf("[ \"$(stat -c %%U:%%G %[1]s)\" = swift:swift ] || { chown swift:swift %[1]s; echo \"chown swift %[1]s\"; }\n", remote.Quote(p))
}

// DevicesRootOf is the devices directory of host h's storage confs in r.
func DevicesRootOf(r *render.Rendering, h *plan.Host) string {
	for _, c := range r.Confs {
		if c.Host == h {
			if v, ok := c.File.Value("DEFAULT", "devices"); ok && strings.HasPrefix(v, "/") {
				return v
			}
		}
	}
	return devicesRoot
}
