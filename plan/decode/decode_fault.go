package decode

import (
	"regexp"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"benchbed/plan"
	"benchbed/plan/lang"
)

// blockFault is a variant's fault block: fault "KIND" { ... }.
const blockFault = "fault"

// faultAttrs are the attributes a fault block may have; which apply
// depends on its kind (faultFields).
var faultAttrs = []string{"hosts", "role", "count", "disks", "service", "at!", "for!",
	"read_bytes_per_s", "write_bytes_per_s", "read_iops", "write_iops",
	"rate", "interface", "how", "ports", "ring", "weight"}

// faultFields lists, per kind, the attributes besides the targets and times
// that the kind takes; any other is an error.
var faultFields = map[string][]string{
	plan.FaultSlowDisk:  {"disks", "service", "read_bytes_per_s", "write_bytes_per_s", "read_iops", "write_iops"},
	plan.FaultFailDisk:  {"disks"},
	plan.FaultStop:      {"service", "how"},
	plan.FaultPause:     {"service", "how"},
	plan.FaultPartition: {"service", "ports"},
	plan.FaultSlowLink:  {"rate", "interface"},
	plan.FaultRebalance: {"disks", "ring", "weight"},
}

// tcRate is a rate as tc reads it: a number and a unit ("10mbit", "512kbps").
var tcRate = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?([kmgt]i?)?(bit|bps)$`)

// decodeFault decodes one fault block of variant v; nil when unusable.
func (d *decoder) decodeFault(v *plan.Variant, b *hcl.Block, ctx *hcl.EvalContext) *plan.Fault {
	kind := b.Labels[0]
	if !slices.Contains(plan.FaultKinds, kind) {
		d.Errorf(b.LabelRanges[0].Ptr(), "Unknown fault kind", "variant %q: fault %q is none of %q", v.Name, kind, plan.FaultKinds)
		return nil
	}
	c := d.Attrs(b.Body, faultAttrs)
	f := &plan.Fault{Kind: kind, DefRange: b.DefRange}
	for _, a := range lang.SortedAttrs(c.Attributes) {
		switch a.Name {
		case "hosts", "role", "count", "at", "for":
		default:
			if !slices.Contains(faultFields[kind], a.Name) {
				d.Errorf(a.NameRange.Ptr(), "Attribute not for this fault", "a %s fault takes no %s; it takes %q besides hosts, role, count, at and for",
					kind, a.Name, faultFields[kind])
				continue
			}
		}
		d.faultAttr(f, a, ctx)
	}
	d.faultTargets(v, f, b, c, ctx)
	d.checkFaultKind(f, b, c)
	return f
}

// faultAttr decodes one attribute of a fault block into f.
func (d *decoder) faultAttr(f *plan.Fault, a *hcl.Attribute, ctx *hcl.EvalContext) {
	limit := func() int64 { n, _ := d.Integer(a, ctx, 1, 1<<50); return int64(n) }
	switch a.Name {
	case "at":
		f.At, _ = d.Duration(a, ctx)
	case "for":
		if s, diags := a.Expr.Value(ctx); !diags.HasErrors() && s.Type() == cty.String && s.IsWhollyKnown() && !s.IsNull() && s.AsString() == "end" {
			f.ToEnd = true
			return
		}
		if f.For, _ = d.Duration(a, ctx); f.For == 0 {
			d.Errorf(a.Expr.Range().Ptr(), "Invalid value for for", "for is how long the fault lasts: a duration above 0, or \"end\" (until the run ends)")
		}
	case "disks":
		f.Disks, _ = d.Strings(a, ctx)
	case "service":
		s, _ := d.Str(a, ctx)
		f.Services = []string{s}
	case "read_bytes_per_s":
		f.ReadBytesPerS = limit()
	case "write_bytes_per_s":
		f.WriteBytesPerS = limit()
	case "read_iops":
		f.ReadIOPS = limit()
	case "write_iops":
		f.WriteIOPS = limit()
	case "rate":
		if f.Rate, _ = d.Str(a, ctx); f.Rate != "" && !tcRate.MatchString(f.Rate) {
			d.Errorf(a.Expr.Range().Ptr(), "Invalid value for rate", "rate is a tc rate such as \"10mbit\" or \"2mbps\", got %q", f.Rate)
		}
	case "interface":
		f.Interface, _ = d.Str(a, ctx)
	case "how":
		allowed := []string{plan.HowManager, plan.HowKill}
		if f.Kind == plan.FaultPause {
			allowed = []string{plan.HowSignal, plan.HowFreezer}
		}
		f.How, _ = d.OneOf(a, ctx, allowed...)
	case "ports":
		f.Ports = d.ports(a)
	case "ring":
		f.Ring, _ = d.Str(a, ctx)
	case "weight":
		if f.Weight, _ = d.Number(a, ctx); f.Weight < 0 {
			d.Errorf(a.Expr.Range().Ptr(), "Invalid value for weight", "weight must be >= 0 (0 drains the device)")
		}
	}
}

// faultTargets resolves hosts, or role and count, into f.Hosts, checking
// that every host exists.
func (d *decoder) faultTargets(v *plan.Variant, f *plan.Fault, b *hcl.Block, c *hcl.BodyContent, ctx *hcl.EvalContext) {
	ha, ra, ca := c.Attributes["hosts"], c.Attributes["role"], c.Attributes["count"]
	switch {
	case ha != nil && ra != nil:
		d.Errorf(ra.NameRange.Ptr(), "Conflicting fault targets", "variant %q: a fault names hosts or a role with a count, not both", v.Name)
	case ha != nil:
		f.Hosts, _ = d.Strings(ha, ctx)
		d.checkHosts(ha, f.Hosts)
		if len(f.Hosts) == 0 {
			d.Errorf(ha.Expr.Range().Ptr(), "No fault target", "variant %q: the %s fault's hosts list is empty", v.Name, f.Kind)
		}
	case ra != nil:
		f.Role, _ = d.Str(ra, ctx)
		count := 1
		if ca != nil {
			count, _ = d.Integer(ca, ctx, 1, 1<<16)
		}
		hosts := d.tb.HostsWithRole(f.Role)
		if len(hosts) < count {
			d.Errorf(ra.Expr.Range().Ptr(), "Too few hosts for the fault", "variant %q: the %s fault wants %d hosts with role %q, and there are %d",
				v.Name, f.Kind, count, f.Role, len(hosts))
			return
		}
		for _, h := range hosts[:count] {
			f.Hosts = append(f.Hosts, h.Name)
		}
	default:
		d.Errorf(b.DefRange.Ptr(), "No fault target", "variant %q: a %s fault needs hosts = [...] or role = \"...\" (and count, default 1)", v.Name, f.Kind)
	}
	if ca != nil && ra == nil {
		d.Errorf(ca.NameRange.Ptr(), "count without role", "variant %q: count goes with role; hosts names the hosts themselves", v.Name)
	}
}
