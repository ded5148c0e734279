package importer

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// setDisks gives every ring a disk group and every host its disks blocks:
// rings whose devices are the same names on every host share one group
// (named after its first ring; container's and account's "meta").
func (d *draft) setDisks() {
	groups := map[string]string{} // devices key -> group
	var rings = map[string][]string{}
	for _, r := range d.Rings {
		key := d.ringDisksKey(r)
		g, ok := groups[key]
		if !ok {
			g = r.Name
			groups[key] = g
		}
		r.Group = g
		rings[g] = append(rings[g], r.Name)
	}
	for _, r := range d.Rings {
		if names := rings[r.Group]; slices.Equal(names, []string{"container", "account"}) {
			r.Group = "meta"
		}
	}
	for _, r := range d.Rings {
		for _, h := range d.Hosts {
			d.addDisks(h, r)
		}
	}
}

// ringDisksKey is ring r's device names on every host, as text.
func (d *draft) ringDisksKey(r *dRing) string {
	var b strings.Builder
	for _, h := range d.Hosts {
		fmt.Fprintf(&b, "%s:", h.Name)
		for _, x := range hostDevs(r, h.Address) {
			b.WriteString(x.Device + ",")
		}
		b.WriteString(";")
	}
	return b.String()
}

// addDisks adds ring r's devices on h to h's disks block of r's group (once
// per group), with their weight and their mounts.
func (d *draft) addDisks(h *dHost, r *dRing) {
	devs := hostDevs(r, h.Address)
	if len(devs) == 0 {
		return
	}
	for _, g := range h.Disks {
		if g.Group == r.Group {
			d.checkWeight(h, r, g, devs)
			return
		}
	}
	g := &dDisks{Group: r.Group, Weight: devs[0].Weight}
	for _, x := range devs {
		g.Names = append(g.Names, x.Device)
	}
	d.checkWeight(h, r, g, devs)
	g.Devices, g.FSType = d.mounts(h, g.Names)
	h.Disks = append(h.Disks, g)
}

// checkWeight reports devices of one group on one host whose weights
// differ: a disks block has one weight.
func (d *draft) checkWeight(h *dHost, r *dRing, g *dDisks, devs []Dev) {
	for _, x := range devs {
		if x.Weight != g.Weight {
			d.Diags.add(Error, h.Name, "ring %s: device %s has weight %g, the others of disks %q %g: a disks block has one weight (written: %g)",
				r.Name, x.Device, x.Weight, g.Group, g.Weight, g.Weight)
		}
	}
}

// mounts are the block devices mounted at each disk under the devices
// directory, and their one filesystem; nil when none is mounted. Some
// mounted and some not is a warning: a disks block gives all or none.
func (d *draft) mounts(h *dHost, names []string) ([]string, string) {
	f := h.Facts
	var devs []string
	fs := map[string]bool{}
	mounted := 0
	for _, n := range names {
		m, ok := f.Mounts[path.Join(f.DevicesDir, n)]
		devs = append(devs, m.Source)
		if ok {
			mounted++
			fs[m.FSType] = true
		}
		if !ok && !slices.Contains(f.DeviceDirs, n) {
			d.Diags.add(Warning, h.Name, "ring device %s has no directory under %s", n, f.DevicesDir)
		}
	}
	switch {
	case mounted == 0:
		return nil, ""
	case mounted < len(names):
		d.Diags.add(Warning, h.Name, "only %d of disks %v are mounted under %s: the testbed names them as directories", mounted, names, f.DevicesDir)
		return nil, ""
	}
	if len(fs) != 1 {
		return devs, ""
	}
	for t := range fs {
		return devs, t
	}
	return devs, ""
}

// checkStrayDisks notes directories under a storage host's devices
// directory that no ring names.
func (d *draft) checkStrayDisks() {
	for _, h := range d.Hosts {
		var names []string
		for _, g := range h.Disks {
			names = append(names, g.Names...)
		}
		if len(names) == 0 {
			continue
		}
		for _, dir := range h.Facts.DeviceDirs {
			if !slices.Contains(names, dir) {
				d.Diags.add(Note, h.Name, "%s/%s is in no ring: not described", h.Facts.DevicesDir, dir)
			}
		}
	}
}

// checkZones notes a ring whose regions and zones are not what benchbed
// gives a new ring (region 1, one zone per host in the testbed's order):
// setup keeps the existing builder's, but a ring it would make anew
// differs.
func (d *draft) checkZones() {
	for _, r := range d.Rings {
		zone := 0
		for _, h := range d.Hosts {
			devs := hostDevs(r, h.Address)
			if len(devs) == 0 {
				continue
			}
			zone++
			for _, x := range devs {
				if x.Region != 1 || x.Zone != zone {
					d.Diags.add(Note, h.Name, "ring %s: device %s is in region %d zone %d; benchbed makes a new ring's devices region 1, zone %d (one a host): setup keeps the builder's", r.Name, x.Device, x.Region, x.Zone, zone)
					break
				}
			}
		}
	}
}
