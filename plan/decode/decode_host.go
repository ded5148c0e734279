package decode

import (
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/lang"
)

var hostBlocks = []hcl.BlockHeaderSchema{{Type: "hardware"}, {Type: "disks", LabelNames: []string{"group"}}}

// hostAttrs are a host block's attributes ("!" = required).
var hostAttrs = []string{"for_each", "name", "address!", "port", "user", "roles!", "packages"}

// decodeHost decodes one host block, expanded over its for_each: each
// element is a host of its own, named by the name attribute, else by
// each.key of a map; a list's or set's elements need the name attribute.
func (d *decoder) decodeHost(b *hcl.Block) {
	label := b.Labels[0]
	c := d.Attrs(b.Body, hostAttrs, hostBlocks...)
	fe, rng := c.Attributes["for_each"], b.LabelRanges[0] // rng: where the names are given
	if a := c.Attributes["name"]; a != nil {
		rng = a.Expr.Range()
	}
	if fe == nil {
		p := lang.EachPoint{Name: label, Ctx: d.NoEachContext(b.Body, "host", label)}
		if p.Name = d.hostName(c, p); p.Name != "" {
			d.hostPoint(b, c, p, rng)
		}
		return
	}
	points, _ := d.ForEach(fe, "host", label)
	if len(points) > 0 && !points[0].InMap && c.Attributes["name"] == nil {
		d.Errorf(fe.Expr.Range().Ptr(), "Missing host name",
			"host %q: the elements of a for_each list or set are named by the name attribute (name = \"%s${each.key + 1}\" for a list, name = each.value for a set of names); a map's are named by their keys", label, label)
		return
	}
	if c.Attributes["name"] == nil {
		rng = fe.Expr.Range()
	}
	named := points[:0]
	for _, p := range points {
		if p.Name = d.hostName(c, p); p.Name != "" {
			named = append(named, p)
		}
	}
	d.EachDiags(named, func(p lang.EachPoint) { d.hostPoint(b, c, p, rng) })
}

// hostName is the name of the host of point p: the name attribute's
// value, else a map's key, else the block's label (p.Name without
// for_each); "" when the name attribute is in error (said).
func (d *decoder) hostName(c *hcl.BodyContent, p lang.EachPoint) string {
	if a := c.Attributes["name"]; a != nil {
		name, _ := d.Str(a, p.Ctx)
		return name
	}
	if p.InMap {
		return p.Key.AsString()
	}
	return p.Name
}

// hostPoint decodes the host named p.Name of one point (or of the block
// without for_each) in the point's context, the overrides of that name
// merged in; rng is where its name was given.
func (d *decoder) hostPoint(b *hcl.Block, c *hcl.BodyContent, p lang.EachPoint, rng hcl.Range) {
	if !d.checkName(p.Name, rng, "host") {
		return
	}
	if ob := d.ElementOverride(b, p.Name); ob != b {
		b, c = ob, d.Attrs(ob.Body, hostAttrs, hostBlocks...)
	}
	saved := d.Ctx
	d.Ctx = p.Ctx // decodeDisks, decodeHardware and packages evaluate in d.Ctx
	defer func() { d.Ctx = saved }()
	d.addHost(d.buildHost(b, c, p.Name), rng)
}

// addHost appends h unless its name is taken or the testbed has
// MaxHosts hosts already; rng is where its name was given.
func (d *decoder) addHost(h *plan.Host, rng hcl.Range) {
	if prev := d.hostByName[h.Name]; prev != nil {
		d.Errorf(rng.Ptr(), "Duplicate host", "host %q is already declared at %s", h.Name, prev.DefRange)
		return
	}
	if len(d.tb.Hosts) == MaxHosts {
		d.Errorf(rng.Ptr(), "Too many hosts", "a testbed has at most %d hosts, for_each points included", MaxHosts)
	}
	if len(d.tb.Hosts) >= MaxHosts {
		return
	}
	if d.hostByName == nil {
		d.hostByName = map[string]*plan.Host{}
	}
	d.hostByName[h.Name] = h
	d.tb.Hosts = append(d.tb.Hosts, h)
}

// buildHost decodes one host named name, in d.Ctx.
func (d *decoder) buildHost(b *hcl.Block, c *hcl.BodyContent, name string) *plan.Host {
	h := &plan.Host{Name: name, DefRange: b.DefRange}
	for _, a := range lang.SortedAttrs(c.Attributes) {
		switch a.Name {
		case "address":
			var ok bool
			if h.Address, ok = d.Str(a, d.Ctx); ok && (h.Address == "" || strings.ContainsAny(h.Address, " \t/")) {
				d.Errorf(a.Expr.Range().Ptr(), "Invalid address", "host %q: address must be an IP address or DNS name, got %q", h.Name, h.Address)
			}
		case "port":
			h.Port, _ = d.Integer(a, d.Ctx, 1, 65535)
		case "user":
			h.User, _ = d.Str(a, d.Ctx)
		case "roles":
			h.Roles, _ = d.Strings(a, d.Ctx)
			d.CheckUnique(a, h.Roles, "role")
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
	return h
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
	c := d.Attrs(b.Body, []string{"part_power!", "replicas", "min_part_hours", "disks!", "port", "port_base", "builder"})
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
