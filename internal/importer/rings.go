package importer

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ringRole is the role that serves ring name.
func ringRole(name string) string {
	if name == "object" || strings.HasPrefix(name, "object-") {
		return "object"
	}
	return name
}

// ringRank orders rings: object, object-N by N, container, account.
func ringRank(name string) int {
	switch {
	case name == "object":
		return 0
	case strings.HasPrefix(name, "object-"):
		n, _ := strconv.Atoi(strings.TrimPrefix(name, "object-"))
		return 1 + n
	case name == "container":
		return 1 << 20
	}
	return 1<<20 + 1
}

// ringNames are the rings any host has, in ringRank's order.
func ringNames(facts []*Facts) []string {
	var out []string
	for _, f := range facts {
		for _, r := range f.Rings {
			if !slices.Contains(out, r.Name) && (r.Name == "account" || r.Name == "container" || ringRole(r.Name) == "object") {
				out = append(out, r.Name)
			}
		}
	}
	slices.SortFunc(out, func(a, b string) int { return cmp.Compare(ringRank(a), ringRank(b)) })
	return out
}

// readRing reads ring name from the first host with its builder, else the
// first with its ring file, and reports ring files that differ between
// hosts and a builder whose devices its ring file does not hold.
func (d *draft) readRing(facts []*Facts, name string) *dRing {
	var src *Facts
	var dump *RingDump
	for _, f := range facts {
		if r := f.ringDump(name); r != nil && (dump == nil || dump.Kind == "ring" && r.Kind == "builder") {
			src, dump = f, r
		}
	}
	if dump == nil {
		d.Diags.add(Error, "", "ring %s: no host could read its builder or ring file", name)
		return nil
	}
	r := &dRing{Name: name, PartPower: dump.PartPower, Replicas: dump.Replicas, MinPartHours: dump.MinPartHours, Devs: dump.Devs}
	if dump.Kind == "builder" {
		r.Builder, r.From = src.Host, src.Host+":/etc/swift/"+name+".builder"
	} else {
		r.MinPartHours = -1
		r.From = src.Host + ":/etc/swift/" + name + ".ring.gz"
		d.Diags.add(Note, "", "ring %s: no host has its builder; read from %s (a ring file keeps no min_part_hours: the default 1 is written, and setup would make a new builder)", name, r.From)
	}
	d.checkRingSync(facts, name, src, dump)
	return r
}

// checkRingSync reports ring files of name that differ between hosts, and
// a builder whose ring file holds other devices.
func (d *draft) checkRingSync(facts []*Facts, name string, src *Facts, dump *RingDump) {
	sums := map[string][]string{}
	var order []string
	for _, f := range facts {
		if f.ringFile(name) == nil && f.hasRingFiles() {
			d.Diags.add(Error, f.Host, "ring %s is out of sync: this host has other rings' files but not %s.ring.gz", name, name)
		}
		if r := f.ringFile(name); r != nil {
			if sums[r.Sum] == nil {
				order = append(order, r.Sum)
			}
			sums[r.Sum] = append(sums[r.Sum], f.Host)
		}
	}
	if len(order) > 1 {
		var parts []string
		for _, s := range order {
			parts = append(parts, fmt.Sprintf("%s (md5 %s)", strings.Join(sums[s], ", "), s))
		}
		d.Diags.add(Error, "", "ring %s is out of sync: its ring files differ between hosts: %s; the testbed describes %s's %s",
			name, strings.Join(parts, " vs "), src.Host, dump.Kind)
	}
	if dump.Kind != "builder" {
		return
	}
	if rf := src.ringFile(name); rf != nil && devsKey(rf.Devs) != devsKey(dump.Devs) {
		d.Diags.add(Error, src.Host, "ring %s: the builder's devices differ from its ring file's (a change not yet rebalanced or written): the testbed describes the builder's", name)
	}
}

// devsKey is a device list as comparable text, in id order.
func devsKey(devs []Dev) string {
	s := slices.Clone(devs)
	slices.SortFunc(s, func(a, b Dev) int { return cmp.Compare(a.ID, b.ID) })
	var b strings.Builder
	for _, x := range s {
		fmt.Fprintf(&b, "%d r%dz%d-%s:%d/%s %g;", x.ID, x.Region, x.Zone, x.IP, x.Port, x.Device, x.Weight)
	}
	return b.String()
}

// hostDevs are ring r's devices on host h (by address), in port then id order.
func hostDevs(r *dRing, addr string) []Dev {
	var out []Dev
	for _, x := range r.Devs {
		if x.IP == addr {
			out = append(out, x)
		}
	}
	slices.SortFunc(out, func(a, b Dev) int { return cmp.Or(cmp.Compare(a.Port, b.Port), cmp.Compare(a.ID, b.ID)) })
	return out
}

// ringPorts sets r.Port and r.PortBase from its devices: one port for all,
// or on every host port_base + the disk's index. Anything else is an
// error: the language cannot say it.
func (d *draft) ringPorts(r *dRing, hosts []*dHost, confPort int) bool {
	ports := map[int]bool{}
	for _, x := range r.Devs {
		ports[x.Port] = true
	}
	if len(ports) == 1 {
		for p := range ports {
			r.Port = p
		}
		return false
	}
	base := -1
	for _, h := range hosts {
		for i, x := range hostDevs(r, h.Address) {
			if base < 0 {
				base = x.Port - i
			}
			if x.Port != base+i {
				d.Diags.add(Error, h.Name, "ring %s: device %s has port %d: neither one port per host nor port_base + the disk's index (%d)", r.Name, x.Device, x.Port, base+i)
			}
		}
	}
	r.PortBase, r.Port = base, confPort
	return true
}
