package orchestrate

import (
	"fmt"
	"path"
	"strings"

	"benchbed/plan"
)

// DevicesRoot is Swift's default devices directory.
const DevicesRoot = "/srv/node"

// ringDisks returns host h's disk groups that a ring of one of its roles
// uses: only those disks are prepared.
func ringDisks(tb *plan.Testbed, h *plan.Host) []*plan.DiskGroup {
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
// user; a disk with a device is mounted there, and formatted first only
// when it declares format = true and the device holds no filesystem (a
// device with another filesystem is an error, never overwritten). It prints
// one line per change.
func DisksScript(tb *plan.Testbed, h *plan.Host, root string) string {
	var b strings.Builder
	b.WriteString("set -e\n")
	for _, d := range []string{"/etc/swift", "/var/cache/swift", RunDir, LogDir, root} {
		fmt.Fprintf(&b, "[ -d %[1]s ] || { mkdir -p %[1]s; echo \"made %[1]s\"; }\n", shellQuote(d))
	}
	for _, d := range []string{"/var/cache/swift", RunDir, LogDir} {
		b.WriteString(ownScript(d))
	}
	for _, g := range ringDisks(tb, h) {
		for _, d := range g.Disks {
			p := path.Join(root, d.Name)
			if d.Device != "" {
				b.WriteString(mountScript(d, p))
			} else {
				fmt.Fprintf(&b, "[ -d %[1]s ] || { mkdir -p %[1]s; echo \"made %[1]s\"; }\n", shellQuote(p))
			}
			b.WriteString(ownScript(p))
		}
	}
	return b.String()
}

// ownScript gives directory p to the swift user when another owns it.
func ownScript(p string) string {
	return fmt.Sprintf("[ \"$(stat -c %%U:%%G %[1]s)\" = swift:swift ] || { chown swift:swift %[1]s; echo \"chown swift %[1]s\"; }\n", shellQuote(p))
}

// mountScript mounts d's device on p, formatting it first when allowed.
func mountScript(d plan.Disk, p string) string {
	dev, q := shellQuote(d.Device), shellQuote(p)
	fs := d.Filesystem
	check := ":" // no filesystem declared: mount what is there
	if fs != "" {
		check = fmt.Sprintf(`[ "$have" = %s ] || { echo "%s: %s holds $have, the testbed says %s; not formatting it" >&2; exit 1; }`, fs, d.Name, d.Device, fs)
	} else {
		fs = "xfs"
	}
	format := fmt.Sprintf(`echo "%s: %s holds no filesystem and format is not set" >&2; exit 1`, d.Name, d.Device)
	if d.Format {
		opt := "-q -f"
		if fs == "ext4" {
			opt = "-q -F"
		}
		format = fmt.Sprintf(`mkfs.%s %s -L %s %s >/dev/null; echo "formatted %s as %s"`, fs, opt, shellQuote(d.Name), dev, d.Device, fs)
	}
	return fmt.Sprintf(`if ! mountpoint -q %[2]s; then
  [ -b %[1]s ] || { echo "%[5]s: %[6]s is not a block device" >&2; exit 1; }
  have=$(blkid -o value -s TYPE %[1]s || true)
  if [ -z "$have" ]; then %[3]s; have=%[4]s; fi
  %[7]s
  mkdir -p %[2]s; mount -o noatime %[1]s %[2]s; echo "mounted %[6]s on %[2]s"
fi
`, dev, q, format, fs, d.Name, d.Device, check)
}
