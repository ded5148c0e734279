package decode

import (
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/lang"
)

var hostBlocks = []hcl.BlockHeaderSchema{{Type: "hardware"}, {Type: "disks", LabelNames: []string{"group"}}}

// decodeHost decodes one host block.
func (d *decoder) decodeHost(b *hcl.Block) {
	h := &plan.Host{Name: b.Labels[0], DefRange: b.DefRange}
	if !d.checkName(h.Name, b.LabelRanges[0], "host") || d.duplicate(b, "host", d.hostRange(h.Name)) {
		return
	}
	c := d.attrs(b.Body, []string{"address!", "port", "user", "roles!", "packages"}, hostBlocks...)
	for _, a := range lang.SortedAttrs(c.Attributes) {
		switch a.Name {
		case "address":
			h.Address, _ = d.Str(a, d.Ctx)
			if h.Address == "" || strings.ContainsAny(h.Address, " \t/") {
				d.Errorf(a.Expr.Range().Ptr(), "Invalid address", "host %q: address must be an IP address or DNS name, got %q", h.Name, h.Address)
			}
		case "port":
			h.Port, _ = d.Integer(a, d.Ctx, 1, 65535)
		case "user":
			h.User, _ = d.Str(a, d.Ctx)
		case "roles":
			h.Roles, _ = d.Strings(a, d.Ctx)
			d.checkUnique(a, h.Roles, "role")
		case "packages":
			h.Packages, h.PackagesSet = d.packages(a)
		}
	}
	for _, blk := range c.Blocks {
		switch blk.Type {
		case "hardware":
			if h.Hardware != nil {
				d.Errorf(blk.DefRange.Ptr(), "Duplicate hardware block", "host %q has more than one hardware block", h.Name)
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
func (d *decoder) decodeHardware(b *hcl.Block) []plan.Fact {
	attrs, diags := b.Body.JustAttributes()
	d.Diags = append(d.Diags, diags...)
	facts := []plan.Fact{}
	for _, a := range lang.SortedAttrs(attrs) {
		v, diags := d.Eval(a.Expr, d.Ctx)
		d.Diags = append(d.Diags, diags...)
		if diags.HasErrors() {
			continue
		}
		if v, _ = v.UnmarkDeep(); v.IsWhollyKnown() && !v.IsNull() {
			facts = append(facts, plan.Fact{Key: a.Name, Value: lang.ValueText(v)})
		}
	}
	return facts
}

var diskNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// packageNameRE matches a Debian or RPM package name (an arch suffix such as
// ":amd64" is not accepted: the host's own architecture is installed).
var packageNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9+._-]*$`)

func validDiskName(s string) bool { return diskNameRE.MatchString(s) && len(s) <= 64 }

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
	r := &plan.Ring{Name: b.Labels[0], Replicas: 3, MinPartHours: 1, DefRange: b.DefRange}
	r.Role = plan.RingRole(r.Name)
	if r.Role == "" {
		d.Errorf(b.LabelRanges[0].Ptr(), "Invalid ring name", "ring %q: a ring is named account, container, object or object-N (N a policy index)", r.Name)
		return
	}
	if d.duplicate(b, "ring", d.ringRange(r.Name)) {
		return
	}
	r.Port = defaultRingPort(r.Role)
	c := d.attrs(b.Body, []string{"part_power!", "replicas", "min_part_hours", "disks!", "port", "port_base", "builder"})
	var replicas *hcl.Attribute // set when valid
	for _, a := range lang.SortedAttrs(c.Attributes) {
		switch a.Name {
		case "part_power":
			r.PartPower, _ = d.Integer(a, d.Ctx, 1, 32)
		case "replicas":
			if f, ok := d.finite(a, d.Ctx, 1, MaxReplicas, "a number from 1 to 16"); ok {
				r.Replicas, replicas = f, a
			}
		case "min_part_hours":
			r.MinPartHours, _ = d.Integer(a, d.Ctx, 0, 1<<20)
		case "disks":
			if g, ok := d.Str(a, d.Ctx); ok && g == "" {
				d.Errorf(a.Expr.Range().Ptr(), "Invalid value for disks", "ring %q: disks names the disk group whose disks are its devices, got \"\"", r.Name)
			} else {
				r.Disks = g
			}
		case "port":
			r.Port, _ = d.Integer(a, d.Ctx, 1, 65535)
		case "port_base":
			r.PortBase, _ = d.Integer(a, d.Ctx, 1, 65535)
		case "builder":
			r.Builder, _ = d.Str(a, d.Ctx)
		}
	}
	if r.PortBase == 0 {
		r.PortBase = r.Port + 1
	}
	if replicas != nil {
		d.warnReplicas(r, replicas)
	}
	d.tb.Rings = append(d.tb.Rings, r)
}
