package decode

import (
	"regexp"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/lang"
)

// policyAttrs are a policy block's attributes ("!" = required).
var policyAttrs = []string{"index!", "type", "ec_type", "ec_num_data_fragments", "ec_num_parity_fragments",
	"ec_object_segment_size", "ec_duplication_factor", "default", "deprecated", "aliases"}

// ecAttrs are the attributes only an erasure-coded policy may set.
var ecAttrs = []string{"ec_type", "ec_num_data_fragments", "ec_num_parity_fragments",
	"ec_object_segment_size", "ec_duplication_factor"}

// policyNameRE is what Swift accepts as a policy name or alias: letters,
// digits and dashes (they travel in X-Storage-Policy headers).
var policyNameRE = regexp.MustCompile(`^[A-Za-z0-9-]+$`)

// decodePolicies decodes the policy blocks and sorts them by index.
func (d *decoder) decodePolicies(blocks []*hcl.Block) {
	for _, b := range blocks {
		d.decodePolicy(b)
	}
	sort.SliceStable(d.tb.Policies, func(i, j int) bool { return d.tb.Policies[i].Index < d.tb.Policies[j].Index })
	if ps := d.tb.Policies; len(ps) == 1 && !ps[0].Deprecated {
		ps[0].Default = true // Swift makes a lone policy the default
	}
}

// decodePolicy decodes one policy block.
func (d *decoder) decodePolicy(b *hcl.Block) {
	p := &plan.Policy{Name: b.Labels[0], Type: plan.PolicyReplication, Declared: true, DefRange: b.DefRange}
	d.checkPolicyName(p.Name, false, b.LabelRanges[0])
	c := d.Attrs(b.Body, policyAttrs)
	for _, a := range lang.SortedAttrs(c.Attributes) {
		switch a.Name {
		case "index":
			p.Index, _ = d.Integer(a, d.Ctx, 0, 1<<31-1)
		case "type":
			p.Type, _ = d.OneOf(a, d.Ctx, plan.PolicyReplication, plan.PolicyErasureCoding)
		case "ec_type":
			p.ECType, _ = d.OneOf(a, d.Ctx, plan.ECTypes...)
		case "ec_num_data_fragments":
			p.ECData, _ = d.Integer(a, d.Ctx, 1, 256)
		case "ec_num_parity_fragments":
			p.ECParity, _ = d.Integer(a, d.Ctx, 1, 256)
		case "ec_object_segment_size":
			n, _ := d.Integer(a, d.Ctx, 1, 1<<40)
			p.ECSegmentSize = int64(n)
		case "ec_duplication_factor":
			p.ECDuplication, _ = d.Integer(a, d.Ctx, 1, 16)
		case "default":
			p.Default, _ = d.Bool(a, d.Ctx)
		case "deprecated":
			p.Deprecated, _ = d.Bool(a, d.Ctx)
		case "aliases":
			p.Aliases, _ = d.Strings(a, d.Ctx)
		}
	}
	d.checkPolicyAttrs(p, b, c)
	d.tb.Policies = append(d.tb.Policies, p)
}

// checkPolicyAttrs checks one policy's attributes against its type, as
// Swift 2.30's storage_policy.py does when it parses swift.conf.
func (d *decoder) checkPolicyAttrs(p *plan.Policy, b *hcl.Block, c *hcl.BodyContent) {
	if a := c.Attributes["aliases"]; a != nil {
		for _, n := range p.Aliases {
			d.checkPolicyName(n, true, a.Expr.Range())
		}
	}
	if strings.EqualFold(p.Name, "Policy-0") && p.Index != 0 {
		d.Errorf(b.LabelRanges[0].Ptr(), "Reserved policy name", "the name Policy-0 is reserved for policy index 0 (Swift refuses it for index %d)", p.Index)
	}
	if p.Default && p.Deprecated {
		d.Errorf(b.DefRange.Ptr(), "Deprecated default policy", "policy %q: a deprecated policy cannot be the default (Swift refuses it)", p.Name)
	}
	if !p.IsEC() {
		for _, n := range ecAttrs {
			if a := c.Attributes[n]; a != nil {
				d.Errorf(a.NameRange.Ptr(), "EC setting on a replicated policy", "policy %q: %s needs type = %q", p.Name, n, plan.PolicyErasureCoding)
			}
		}
		return
	}
	for _, n := range ecAttrs[:3] {
		if c.Attributes[n] == nil {
			d.Errorf(b.DefRange.Ptr(), "Missing "+n, "erasure-coded policy %q needs %s", p.Name, n)
		}
	}
	if p.ECType == "isa_l_rs_vand" && p.ECParity >= 5 && !p.Deprecated {
		d.Errorf(b.DefRange.Ptr(), "Unsafe EC configuration", "policy %q: isa_l_rs_vand with %d parity fragments is known to harm durability (Swift bug 1639691); Swift only accepts it deprecated", p.Name, p.ECParity)
	}
}

// checkPolicyName reports a policy name or alias Swift would refuse.
func (d *decoder) checkPolicyName(name string, alias bool, rng hcl.Range) {
	if policyNameRE.MatchString(name) {
		return
	}
	kind := "name"
	if alias {
		kind = "alias"
	}
	d.Errorf(rng.Ptr(), "Invalid policy "+kind, "policy %s %q: Swift allows only letters, digits and - (it travels in the X-Storage-Policy header)", kind, name)
}
