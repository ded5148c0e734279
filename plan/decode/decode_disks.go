package decode

import (
	"math"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"benchbed/plan"
	"benchbed/plan/lang"
)

// decodeDisks decodes a disks "group" block.
func (d *decoder) decodeDisks(h *plan.Host, b *hcl.Block) *plan.DiskGroup {
	g := &plan.DiskGroup{Name: b.Labels[0], DefRange: b.DefRange}
	if prev := h.DiskGroup(g.Name); prev != nil {
		d.Errorf(b.LabelRanges[0].Ptr(), "Duplicate disk group", "host %q already has disks %q at %s", h.Name, g.Name, prev.DefRange)
		return nil
	}
	c := d.Attrs(b.Body, []string{"names!", "devices", "filesystem", "format", "weight"})
	var names, devices []string
	fs, format, force, weight := "", false, false, plan.DefaultDiskWeight
	for _, a := range lang.SortedAttrs(c.Attributes) {
		switch a.Name {
		case "names":
			names = d.diskNames(a)
		case "devices":
			devices, _ = d.Strings(a, d.Ctx)
		case "filesystem":
			fs, _ = d.OneOf(a, d.Ctx, "xfs", "ext4")
		case "format":
			format, force = d.formatMode(a)
		case "weight":
			weight, _ = d.finite(a, d.Ctx, 0, math.MaxFloat64, "a finite number, 0 or more")
		}
	}
	d.checkDevices(h, g, c, names, devices, format)
	for i, n := range names {
		disk := plan.Disk{Name: n, Filesystem: fs, Format: format, Force: force, Weight: weight}
		if i < len(devices) {
			disk.Device = devices[i]
		}
		g.Disks = append(g.Disks, disk)
	}
	return g
}

// diskNames decodes and checks a disk group's names.
func (d *decoder) diskNames(a *hcl.Attribute) []string {
	names, _ := d.Strings(a, d.Ctx)
	d.CheckUnique(a, names, "disk")
	for _, n := range names {
		if !validDiskName(n) {
			d.Errorf(a.Expr.Range().Ptr(), "Invalid disk name", "disk name %q must be a plain directory name (letters, digits, . _ -)", n)
		}
	}
	return names
}

// checkDevices checks that devices match names one to one, that a group has
// names, and that format has devices to format.
func (d *decoder) checkDevices(h *plan.Host, g *plan.DiskGroup, c *hcl.BodyContent, names, devices []string, format bool) {
	if a := c.Attributes["devices"]; a != nil && devices != nil && len(devices) != len(names) {
		d.Errorf(a.Expr.Range().Ptr(), "Disk devices do not match names", "%d devices for %d names: give one device path per name", len(devices), len(names))
	}
	if a := c.Attributes["devices"]; a != nil {
		for _, dev := range devices {
			if !strings.HasPrefix(dev, "/") {
				d.Errorf(a.Expr.Range().Ptr(), "Invalid device", "device %q must be an absolute path (/dev/sdb, /dev/disk/by-id/...)", dev)
			}
		}
	}
	if len(names) == 0 && c.Attributes["names"] != nil {
		d.Errorf(c.Attributes["names"].Expr.Range().Ptr(), "Empty disk group", "disks %q of host %q has no names", g.Name, h.Name)
	}
	if a := c.Attributes["format"]; a != nil && format && c.Attributes["devices"] == nil {
		d.Errorf(a.Expr.Range().Ptr(), "Nothing to format", "disks %q of host %q: format needs devices (directory disks are never formatted)", g.Name, h.Name)
	}
	if a := c.Attributes["names"]; a != nil && format {
		for _, n := range names {
			if len(n) > maxXFSLabel {
				d.Errorf(a.Expr.Range().Ptr(), "Disk name too long for a label", "disk %q: a formatted disk is labelled with its name, at most %d characters (XFS)", n, maxXFSLabel)
			}
		}
	}
}

// maxXFSLabel is the longest XFS label, which a formatted disk's name becomes.
const maxXFSLabel = 12

// formatMode decodes format = true | false | "force": whether setup may
// format the disks, and whether it may format a device that holds a
// filesystem it did not make.
func (d *decoder) formatMode(a *hcl.Attribute) (format, force bool) {
	v, _, ok := d.Value(a, d.Ctx, cty.DynamicPseudoType)
	if !ok {
		return false, false
	}
	switch {
	case v.Type() == cty.Bool:
		return v.True(), false
	case v.Type() == cty.String && v.AsString() == "force":
		return true, true
	}
	d.Errorf(a.Expr.Range().Ptr(), "Invalid value for format", `format must be true, false or "force", got %s`, lang.ValueText(v))
	return false, false
}

// packages decodes a packages list: the names apt or dnf installs.
func (d *decoder) packages(a *hcl.Attribute) ([]string, bool) {
	ps, ok := d.Strings(a, d.Ctx)
	if !ok {
		return nil, false
	}
	d.CheckUnique(a, ps, "package")
	for _, p := range ps {
		if !packageNameRE.MatchString(p) {
			d.Errorf(a.Expr.Range().Ptr(), "Invalid package name", "package %q: a Debian or RPM package name has letters, digits and + - . _ only", p)
			return nil, false
		}
	}
	return ps, true
}
