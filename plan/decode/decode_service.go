package decode

import (
	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/lang"
)

// decodeService decodes one service block.
func (d *decoder) decodeService(b *hcl.Block) {
	if d.isGeneric(b) {
		d.decodeGeneric(b)
		return
	}
	s := &plan.Service{Name: b.Labels[0], Manager: plan.DefaultManager, DefRange: b.DefRange}
	if !d.checkName(s.Name, b.LabelRanges[0], "service") || d.duplicate(b, "service", d.serviceRange(s.Name)) {
		return
	}
	c := d.Attrs(b.Body, []string{"kind", "role!", "template", "path", "manager", "unit", "restart", "health", "settings", "packages", "daemons", "unchecked"})
	for _, a := range lang.SortedAttrs(c.Attributes) {
		switch a.Name {
		case "kind":
			_, _ = d.OneOf(a, d.Ctx, plan.KindSwift, plan.KindGeneric)
		case "role":
			s.Role, _ = d.Str(a, d.Ctx)
		case "template":
			s.Template, _ = d.Str(a, d.Ctx)
			d.checkTemplateFile(a, s.Name, s.Template)
		case "path":
			s.Path, _ = d.Str(a, d.Ctx)
			d.checkConfPath(a, s.Name, s.Path)
		case "manager":
			s.Manager, _ = d.OneOf(a, d.Ctx, plan.ManagerSystemd, plan.ManagerSwiftInit, plan.ManagerDirect)
		case "unit":
			s.Unit, _ = d.Str(a, d.Ctx)
		case "restart":
			s.Restart, _ = d.Str(a, d.Ctx)
		case "health":
			s.Health, _ = d.Str(a, d.Ctx)
			d.checkHealthURL(a, s.Health)
		case "settings":
			s.Settings = d.decodeSettings(a.Expr, d.Ctx)
		case "packages":
			s.Packages, s.PackagesSet = d.packages(a)
		case "unchecked":
			s.Unchecked, _ = d.Strings(a, d.Ctx)
		}
	}
	if a := c.Attributes["daemons"]; a != nil {
		s.Daemons = d.daemons(a, s)
	}
	if s.Template == "" {
		s.Template = s.Name
	}
	if s.Path == "" {
		s.Path = "/etc/swift/" + s.Name + ".conf"
	}
	if s.Settings == nil {
		s.Settings = plan.Settings{}
	}
	d.tb.Services = append(d.tb.Services, s)
}

var variantBlocks = []hcl.BlockHeaderSchema{
	{Type: "set", LabelNames: []string{"service"}},
	{Type: "ring", LabelNames: []string{"name"}},
	{Type: "service", LabelNames: []string{"name"}},
	{Type: blockFault, LabelNames: []string{"kind"}},
}

// decodeVariant decodes one variant block, expanded over its for_each.
func (d *decoder) decodeVariant(b *hcl.Block) {
	label := b.Labels[0]
	c := d.Attrs(b.Body, []string{"for_each", "name", "description", "before", "before_on", "unchecked"}, variantBlocks...)
	fe := c.Attributes["for_each"]
	if fe == nil {
		ctx := d.NoEachContext(b.Body, "variant", label)
		if c.Attributes["name"] != nil {
			d.expandVariant(b, c, label, ctx)
		} else {
			d.addVariant(d.buildVariant(b, c, label, ctx))
		}
		return
	}
	points, _ := d.ForEach(fe, "variant", label)
	d.EachDiags(points, func(p lang.EachPoint) { d.expandVariant(b, c, p.Name, p.Ctx) })
}

// expandVariant builds one variant whose name may come from the name attribute.
func (d *decoder) expandVariant(b *hcl.Block, c *hcl.BodyContent, name string, ctx *hcl.EvalContext) {
	if a := c.Attributes["name"]; a != nil {
		n, ok := d.Str(a, ctx)
		if !ok {
			return
		}
		name = n
	}
	d.addVariant(d.buildVariant(b, c, name, ctx))
}

// addVariant appends v unless its name is taken.
func (d *decoder) addVariant(v *plan.Variant) {
	if v == nil {
		return
	}
	if prev := d.variantSeen(v.Name); prev != nil {
		d.Errorf(v.DefRange.Ptr(), "Duplicate variant", "variant %q is already declared at %s", v.Name, prev.DefRange)
		return
	}
	if len(d.tb.Variants) == MaxVariants {
		d.Errorf(v.DefRange.Ptr(), "Too many variants", "a testbed has at most %d variants, for_each points included", MaxVariants)
	}
	if len(d.tb.Variants) >= MaxVariants {
		return
	}
	d.variantByName[v.Name] = v
	d.tb.Variants = append(d.tb.Variants, v)
}

// buildVariant decodes the set and ring blocks of one variant.
func (d *decoder) buildVariant(b *hcl.Block, c *hcl.BodyContent, name string, ctx *hcl.EvalContext) *plan.Variant {
	if !d.checkName(name, b.DefRange, "variant") {
		return nil
	}
	v := &plan.Variant{Name: name, Block: b.Labels[0], Set: map[string]plan.Settings{}, RingPort: map[string]bool{},
		Runs: map[string]*plan.GenericRun{}, DefRange: b.DefRange}
	if a := c.Attributes["description"]; a != nil {
		v.Description, _ = d.Str(a, ctx)
	}
	if a := c.Attributes["before"]; a != nil {
		v.Before, _ = d.Strings(a, ctx)
	}
	if a := c.Attributes["unchecked"]; a != nil {
		v.Unchecked, _ = d.Strings(a, ctx)
	}
	if a := c.Attributes["before_on"]; a != nil {
		v.BeforeOn, _ = d.Strings(a, ctx)
		d.checkHosts(a, v.BeforeOn)
	}
	for _, blk := range c.Blocks {
		target := blk.Labels[0]
		switch blk.Type {
		case "set":
			if !d.knownSetTarget(blk) {
				continue // said at its label; the variant's other checks go on
			}
			if _, dup := v.Set[target]; dup {
				d.Errorf(blk.LabelRanges[0].Ptr(), "Duplicate set block", "variant %q sets service %q twice", name, target)
				continue
			}
			v.Set[target] = d.decodeSetBlock(blk, ctx)
		case "service":
			if _, dup := v.Runs[target]; dup {
				d.Errorf(blk.LabelRanges[0].Ptr(), "Duplicate service block", "variant %q changes service %q twice", name, target)
				continue
			}
			v.Runs[target] = d.decodeGenericRun(blk, ctx)
		case blockFault:
			if f := d.decodeFault(v, blk, ctx); f != nil {
				v.Faults = append(v.Faults, f)
			}
		case "ring":
			if _, dup := v.RingPort[target]; dup {
				d.Errorf(blk.LabelRanges[0].Ptr(), "Duplicate ring block", "variant %q sets ring %q twice", name, target)
				continue
			}
			rc := d.Attrs(blk.Body, []string{"port_per_disk!"})
			if a := rc.Attributes["port_per_disk"]; a != nil {
				v.RingPort[target], _ = d.Bool(a, ctx)
			}
		}
	}
	return v
}

// decodeSetBlock decodes set "service" { SECTION = { key = value } }. A
// section whose name is no identifier ("app:object-server") is given in a
// settings attribute: settings = { "app:object-server" = { ... } }.
func (d *decoder) decodeSetBlock(b *hcl.Block, ctx *hcl.EvalContext) plan.Settings {
	attrs, diags := b.Body.JustAttributes()
	d.Diags = append(d.Diags, diags...)
	out := plan.Settings{}
	for _, a := range lang.SortedAttrs(attrs) {
		if a.Name == "settings" {
			for sec, keys := range d.decodeSettings(a.Expr, ctx) {
				d.mergeSection(out, sec, keys, a.Expr.Range())
			}
			continue
		}
		d.mergeSection(out, a.Name, d.decodeSection(a.Expr, ctx), a.NameRange)
	}
	return d.secretKeys(out)
}
