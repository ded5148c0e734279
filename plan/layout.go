package plan

import (
	"fmt"
	"sort"
	"strings"
)

// Layout is the ring layout of one variant: the port of every ring device.
// Switching between one port per host and one port per disk moves no
// partitions (placement is region/zone/ip/device), so only ports change.
type Layout struct {
	Variant string
	Rings   []*RingLayout // in the testbed's ring order
}

// RingLayout is one ring's devices in a variant.
type RingLayout struct {
	Ring        *Ring
	PortPerDisk bool
	Devices     []Device // hosts in declaration order, disks in group order
}

// Device is one ring device.
type Device struct {
	Host   string
	IP     string
	Name   string // the disk's name: the ring device and /srv/node/<Name>
	Port   int
	Weight float64
}

// String gives the swift-ring-builder form: ip:port/name.
func (d Device) String() string { return fmt.Sprintf("%s:%d/%s", d.IP, d.Port, d.Name) }

// Layout computes the ring layout of variant v: for every ring, every host
// with the ring's role contributes the disks of its group named by the ring.
// A device's port is the ring's Port, or PortBase plus the disk's index in its
// group when v gives the ring one port per disk. v may be nil (no variant).
// It fails when two rings of different roles would share a port on a host.
func (tb *Testbed) Layout(v *Variant) (*Layout, error) {
	l := &Layout{}
	if v != nil {
		l.Variant = v.Name
	}
	for _, r := range tb.Rings {
		rl := &RingLayout{Ring: r, PortPerDisk: v != nil && v.PortPerDisk(r.Name)}
		for _, h := range tb.HostsWithRole(r.Role) {
			g := h.DiskGroup(r.Disks)
			if g == nil {
				continue
			}
			for i, d := range g.Disks {
				port := r.Port
				if rl.PortPerDisk {
					port = FirstDiskPort(r) + i
				}
				rl.Devices = append(rl.Devices, Device{Host: h.Name, IP: h.Address, Name: d.Name, Port: port, Weight: d.Weight})
			}
		}
		l.Rings = append(l.Rings, rl)
	}
	return l, l.checkPorts()
}

// FirstDiskPort is the port of a ring's first disk when each disk has its own
// (PortBase, or Port+1 when unset).
func FirstDiskPort(r *Ring) int {
	if r.PortBase == 0 {
		return r.Port + 1
	}
	return r.PortBase
}

// checkPorts reports a port that rings of different roles share on one host:
// two servers cannot both listen there.
func (l *Layout) checkPorts() error {
	type key struct {
		host string
		port int
	}
	owner := map[key]*Ring{}
	var errs []string
	for _, rl := range l.Rings {
		for _, d := range rl.Devices {
			k := key{d.Host, d.Port}
			if o, ok := owner[k]; ok && o.Role != rl.Ring.Role {
				errs = append(errs, fmt.Sprintf("variant %q: host %s port %d is used by ring %q (%s) and ring %q (%s)",
					l.Variant, d.Host, d.Port, o.Name, o.Role, rl.Ring.Name, rl.Ring.Role))
				continue
			}
			owner[k] = rl.Ring
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(dedupe(errs), "\n"))
	}
	return nil
}

func dedupe(s []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range s {
		if !seen[x] {
			out = append(out, x)
			seen[x] = true
		}
	}
	return out
}

// Ring returns the layout of the ring named name, or nil.
func (l *Layout) Ring(name string) *RingLayout {
	for _, rl := range l.Rings {
		if rl.Ring.Name == name {
			return rl
		}
	}
	return nil
}

// Ports returns the distinct ports of host's devices in ring, sorted.
func (rl *RingLayout) Ports(host string) []int {
	seen := map[int]bool{}
	var out []int
	for _, d := range rl.Devices {
		if d.Host == host && !seen[d.Port] {
			seen[d.Port] = true
			out = append(out, d.Port)
		}
	}
	sort.Ints(out)
	return out
}

// Mode describes how the ring's ports are assigned.
func (rl *RingLayout) Mode() string {
	if rl.PortPerDisk {
		return fmt.Sprintf("one port per disk from %d", FirstDiskPort(rl.Ring))
	}
	return fmt.Sprintf("one port per host (%d)", rl.Ring.Port)
}
