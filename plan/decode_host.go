package plan

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

var hostBlocks = []hcl.BlockHeaderSchema{{Type: "hardware"}, {Type: "disks", LabelNames: []string{"group"}}}

// decodeHost decodes one host block.
func (d *decoder) decodeHost(b *hcl.Block) {
	h := &Host{Name: b.Labels[0], DefRange: b.DefRange}
	if !d.checkName(h.Name, b.LabelRanges[0], "host") || d.duplicate(b, "host", d.hostRange(h.Name)) {
		return
	}
	c := d.attrs(b.Body, []string{"address!", "port", "user", "roles!"}, hostBlocks...)
	for _, a := range sortedAttrs(c.Attributes) {
		switch a.Name {
		case "address":
			h.Address, _ = d.str(a, d.ctx)
			if h.Address == "" || strings.ContainsAny(h.Address, " \t/") {
				d.errorf(a.Expr.Range().Ptr(), "Invalid address", "host %q: address must be an IP address or DNS name, got %q", h.Name, h.Address)
			}
		case "port":
			h.Port, _ = d.integer(a, d.ctx, 1, 65535)
		case "user":
			h.User, _ = d.str(a, d.ctx)
		case "roles":
			h.Roles, _ = d.strings(a, d.ctx)
			d.checkUnique(a, h.Roles, "role")
		}
	}
	for _, blk := range c.Blocks {
		switch blk.Type {
		case "hardware":
			if h.Hardware != nil {
				d.errorf(blk.DefRange.Ptr(), "Duplicate hardware block", "host %q has more than one hardware block", h.Name)
				continue
			}
			h.Hardware = d.decodeHardware(blk)
		case "disks":
			if g := d.decodeDisks(h, blk); g != nil {
				h.Disks = append(h.Disks, g)
			}
		}
	}
	d.tb.Hosts = append(d.tb.Hosts, h)
}

// decodeHardware decodes free-form facts in declaration order.
func (d *decoder) decodeHardware(b *hcl.Block) []Fact {
	attrs, diags := b.Body.JustAttributes()
	d.diags = append(d.diags, diags...)
	facts := []Fact{}
	for _, a := range sortedAttrs(attrs) {
		v, diags := a.Expr.Value(d.ctx)
		d.diags = append(d.diags, diags...)
		if diags.HasErrors() {
			continue
		}
		if v, _ = v.UnmarkDeep(); v.IsWhollyKnown() && !v.IsNull() {
			facts = append(facts, Fact{Key: a.Name, Value: valueText(v)})
		}
	}
	return facts
}

// decodeDisks decodes a disks "group" block.
func (d *decoder) decodeDisks(h *Host, b *hcl.Block) *DiskGroup {
	g := &DiskGroup{Name: b.Labels[0], DefRange: b.DefRange}
	if prev := h.DiskGroup(g.Name); prev != nil {
		d.errorf(b.LabelRanges[0].Ptr(), "Duplicate disk group", "host %q already has disks %q at %s", h.Name, g.Name, prev.DefRange)
		return nil
	}
	c := d.attrs(b.Body, []string{"names!", "devices", "filesystem", "format", "weight"})
	var names, devices []string
	fs, format, weight := "", false, DefaultDiskWeight
	for _, a := range sortedAttrs(c.Attributes) {
		switch a.Name {
		case "names":
			names, _ = d.strings(a, d.ctx)
			d.checkUnique(a, names, "disk")
			for _, n := range names {
				if !validDiskName(n) {
					d.errorf(a.Expr.Range().Ptr(), "Invalid disk name", "disk name %q must be a plain directory name (letters, digits, . _ -)", n)
				}
			}
		case "devices":
			devices, _ = d.strings(a, d.ctx)
		case "filesystem":
			fs, _ = d.oneOf(a, d.ctx, "xfs", "ext4")
		case "format":
			format, _ = d.boolean(a, d.ctx)
		case "weight":
			weight, _ = d.number(a, d.ctx)
		}
	}
	if a := c.Attributes["devices"]; a != nil && devices != nil && len(devices) != len(names) {
		d.errorf(a.Expr.Range().Ptr(), "Disk devices do not match names", "%d devices for %d names: give one device path per name", len(devices), len(names))
	}
	if len(names) == 0 && c.Attributes["names"] != nil {
		d.errorf(c.Attributes["names"].Expr.Range().Ptr(), "Empty disk group", "disks %q of host %q has no names", g.Name, h.Name)
	}
	for i, n := range names {
		disk := Disk{Name: n, Filesystem: fs, Format: format, Weight: weight}
		if i < len(devices) {
			disk.Device = devices[i]
		}
		g.Disks = append(g.Disks, disk)
	}
	return g
}

var diskNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

func validDiskName(s string) bool { return diskNameRE.MatchString(s) && len(s) <= 64 }

var ringNameRE = regexp.MustCompile(`^(account|container|object(-[0-9]+)?)$`)

// RingRole returns the host role that serves the ring named name: "object"
// for object and object-N, "container", "account"; "" for an invalid name.
func RingRole(name string) string {
	if !ringNameRE.MatchString(name) {
		return ""
	}
	if strings.HasPrefix(name, "object") {
		return "object"
	}
	return name
}

// defaultRingPort is Swift's default bind port of the ring's servers.
func defaultRingPort(role string) int {
	switch role {
	case "account":
		return 6202
	case "container":
		return 6201
	}
	return 6200
}

// decodeRing decodes one ring block.
func (d *decoder) decodeRing(b *hcl.Block) {
	r := &Ring{Name: b.Labels[0], Replicas: 3, MinPartHours: 1, DefRange: b.DefRange}
	r.Role = RingRole(r.Name)
	if r.Role == "" {
		d.errorf(b.LabelRanges[0].Ptr(), "Invalid ring name", "ring %q: a ring is named account, container, object or object-N (N a policy index)", r.Name)
		return
	}
	if d.duplicate(b, "ring", d.ringRange(r.Name)) {
		return
	}
	r.Port = defaultRingPort(r.Role)
	c := d.attrs(b.Body, []string{"part_power!", "replicas", "min_part_hours", "disks!", "port", "port_base", "builder"})
	for _, a := range sortedAttrs(c.Attributes) {
		switch a.Name {
		case "part_power":
			r.PartPower, _ = d.integer(a, d.ctx, 1, 32)
		case "replicas":
			r.Replicas, _ = d.number(a, d.ctx)
			if r.Replicas < 1 {
				d.errorf(a.Expr.Range().Ptr(), "Invalid value for replicas", "replicas must be at least 1, got %s", strconv.FormatFloat(r.Replicas, 'g', -1, 64))
			}
		case "min_part_hours":
			r.MinPartHours, _ = d.integer(a, d.ctx, 0, 1<<20)
		case "disks":
			r.Disks, _ = d.str(a, d.ctx)
		case "port":
			r.Port, _ = d.integer(a, d.ctx, 1, 65535)
		case "port_base":
			r.PortBase, _ = d.integer(a, d.ctx, 1, 65535)
		case "builder":
			r.Builder, _ = d.str(a, d.ctx)
		}
	}
	if r.PortBase == 0 {
		r.PortBase = r.Port + 1
	}
	d.tb.Rings = append(d.tb.Rings, r)
}
