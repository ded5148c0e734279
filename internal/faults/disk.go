package faults

import (
	"errors"
	"fmt"
	"strings"

	"benchbed/plan"
	"benchbed/remote"
)

// devNumbers is the shell that sets mm<i> to disk i's MAJ:MIN, failing
// when a device is no block device.
func devNumbers(kind string, disks []Disk) string {
	var b strings.Builder
	for i, d := range disks {
		dev := remote.Quote(d.Device)
		fmt.Fprintf(&b, "[ -b %s ] || { %s; }\n", dev, fail(kind, d.Device+" (disk "+d.Name+") is no block device"))
		fmt.Fprintf(&b, "mm%d=$(printf '%%d:%%d' 0x$(stat -Lc %%t %s) 0x$(stat -Lc %%T %s))\n", i, dev, dev)
	}
	return b.String()
}

// slowDisk throttles the disks' block devices for the service: systemd's
// IO*Max properties on its unit, else a blkio (v1) or io (v2) cgroup its
// processes are moved into.
func slowDisk(t Target) (Scripts, error) {
	f, s := t.Fault, t.Service
	if len(t.Disks) == 0 {
		return Scripts{}, errors.New("no disk to throttle")
	}
	for _, d := range t.Disks {
		if d.Device == "" {
			return Scripts{}, fmt.Errorf("disk %q has no block device", d.Name)
		}
	}
	if s.Manager == plan.ManagerSystemd {
		return slowDiskSystemd(t), nil
	}
	pf, err := pidsFunc(s)
	if err != nil {
		return Scripts{}, err
	}
	var v1, v2 []string
	for i := range t.Disks {
		for _, l := range []struct {
			file string
			n    int64
		}{{"read_bps_device", f.ReadBytesPerS}, {"write_bps_device", f.WriteBytesPerS}, {"read_iops_device", f.ReadIOPS}, {"write_iops_device", f.WriteIOPS}} {
			if l.n > 0 {
				v1 = append(v1, fmt.Sprintf(`echo "$mm%d %d" > "$cg/blkio.throttle.%s"`, i, l.n, l.file))
			}
		}
		v2 = append(v2, fmt.Sprintf(`echo "$mm%d rbps=%s wbps=%s riops=%s wiops=%s" > "$cg/io.max"`, i,
			maxOr(f.ReadBytesPerS), maxOr(f.WriteBytesPerS), maxOr(f.ReadIOPS), maxOr(f.WriteIOPS)))
	}
	k := cgroupKind{v1: "blkio", v2: "io", v1Limit: strings.Join(v1, "\n"), v2Limit: strings.Join(v2, "\n")}
	nums := devNumbers(f.Kind, t.Disks)
	return Scripts{
		Probe: pf + needPids(f.Kind, s) + nums + k.probe(f.Kind),
		Apply: pf + nums + k.create() + k.move(),
		Undo:  k.undo(),
		Check: k.check(f.Kind),
	}, nil
}

// maxOr is n as io.max reads it: "max" for no limit.
func maxOr(n int64) string {
	if n <= 0 {
		return "max"
	}
	return fmt.Sprint(n)
}

// ioProps are systemd's per-device I/O limits.
var ioProps = []string{"IOReadBandwidthMax", "IOWriteBandwidthMax", "IOReadIOPSMax", "IOWriteIOPSMax"}

// slowDiskSystemd sets the unit's IO*Max runtime properties, and resets
// them (an empty assignment clears a property's list).
func slowDiskSystemd(t Target) Scripts {
	f, unit := t.Fault, remote.Quote(t.Service.Unit)
	limits := []int64{f.ReadBytesPerS, f.WriteBytesPerS, f.ReadIOPS, f.WriteIOPS}
	var set, reset, show []string
	for i, p := range ioProps {
		reset = append(reset, p+"=")
		show = append(show, "-p "+p)
		if limits[i] == 0 {
			continue
		}
		for _, d := range t.Disks {
			set = append(set, remote.Quote(fmt.Sprintf("%s=%s %d", p, d.Device, limits[i])))
		}
	}
	probe := fmt.Sprintf("systemctl is-active --quiet %s || { %s; }\n", unit, fail(f.Kind, "unit "+t.Service.Unit+" is not active")) +
		devNumbers(f.Kind, t.Disks) +
		`if [ -f /sys/fs/cgroup/cgroup.controllers ]; then grep -qw io /sys/fs/cgroup/cgroup.controllers || { ` +
		fail(f.Kind, "cgroup v2 has no io controller, so IOReadBandwidthMax cannot act") + `; }
else [ -w /sys/fs/cgroup/blkio/cgroup.procs ] || { ` + fail(f.Kind, "the blkio controller is not writable, so IOReadBandwidthMax cannot act") + `; }
fi
`
	var check strings.Builder
	fmt.Fprintf(&check, "out=$(systemctl show %s %s)\n", strings.Join(show, " "), unit)
	for _, d := range t.Disks {
		fmt.Fprintf(&check, "! echo \"$out\" | grep -qF -- %s || { %s; }\n", remote.Quote(d.Device), fail(f.Kind, "unit "+t.Service.Unit+" still limits "+d.Device))
	}
	return Scripts{
		Probe: probe,
		Apply: "systemctl set-property --runtime " + unit + " " + strings.Join(set, " ") + "\n",
		Undo:  "systemctl set-property --runtime " + unit + " " + strings.Join(reset, " ") + "\n",
		Check: check.String(),
	}
}

// failDisk unmounts the disks (lazily: open files stay valid, the mount
// point is an empty directory at once, so mount_check answers 507) and
// mounts them back as they were.
func failDisk(t Target) (Scripts, error) {
	if len(t.Disks) == 0 {
		return Scripts{}, errors.New("no disk to fail")
	}
	kind := t.Fault.Kind
	var probe, apply, undo, check strings.Builder
	for i, d := range t.Disks {
		m := remote.Quote(d.Mount)
		st := fmt.Sprintf(`"$state.mount%d"`, i)
		fmt.Fprintf(&probe, "mountpoint -q %s || { %s; }\n", m, fail(kind, d.Mount+" (disk "+d.Name+") is not mounted"))
		fmt.Fprintf(&apply, "findmnt -rno SOURCE,FSTYPE,OPTIONS --mountpoint %s > %s.new || { %s; }\nmv %s.new %s\numount -l %s\n",
			m, st, fail(kind, d.Mount+" is not mounted"), st, st, m)
		fmt.Fprintf(&undo, `if ! mountpoint -q %[1]s; then
  if [ -s %[2]s ]; then
    read -r src fs opts < %[2]s
    mount -t "$fs" -o "$opts" "$src" %[1]s 2>/dev/null || mount -t "$fs" "$src" %[1]s || { %[3]s; }
  else
    mount %[1]s || { %[3]s; }
  fi
fi
rm -f %[2]s
`, m, st, fail(kind, "cannot mount "+d.Mount+" back"))
		fmt.Fprintf(&check, "mountpoint -q %s || { %s; }\n", m, fail(kind, d.Mount+" is not mounted"))
	}
	return Scripts{Probe: probe.String(), Apply: apply.String(), Undo: undo.String(), Check: check.String()}, nil
}
