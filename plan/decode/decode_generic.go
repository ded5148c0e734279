package decode

import (
	"strconv"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/lang"
)

// genericAttrs are a generic service's attributes ("!" = required).
var genericAttrs = []string{"kind!", "role!", "template", "content", "format", "path", "manager", "unit",
	"command", "flags", "restart", "health", "ports", "after_start", "settings", "packages", "catalog", "unchecked"}

// isGeneric reports whether service block b says kind = "generic"
// (anything else is decoded, and checked, as a Swift service).
func (d *decoder) isGeneric(b *hcl.Block) bool {
	attrs, _ := b.Body.JustAttributes()
	a := attrs["kind"]
	if a == nil {
		return false
	}
	v, diags := d.Eval(a.Expr, d.Ctx)
	return !diags.HasErrors() && v.IsKnown() && !v.IsNull() && v.Type().FriendlyName() == "string" && v.AsString() == plan.KindGeneric
}

// decodeGeneric decodes a service block of kind "generic".
func (d *decoder) decodeGeneric(b *hcl.Block) {
	g := &plan.Generic{Name: b.Labels[0], Format: plan.FormatPlain, Manager: plan.ManagerDirect, Settings: plan.Settings{}, DefRange: b.DefRange}
	if !d.checkName(g.Name, b.LabelRanges[0], "service") || d.duplicate(b, "service", d.serviceRange(g.Name)) {
		return
	}
	c := d.Attrs(b.Body, genericAttrs)
	for _, a := range lang.SortedAttrs(c.Attributes) {
		d.genericAttr(g, a)
	}
	d.checkGeneric(g, b, c)
	d.tb.Generics = append(d.tb.Generics, g)
}

// genericAttr decodes one attribute of generic service g.
func (d *decoder) genericAttr(g *plan.Generic, a *hcl.Attribute) {
	switch a.Name {
	case "role":
		g.Role, _ = d.Str(a, d.Ctx)
	case "template":
		g.Template, _ = d.Str(a, d.Ctx)
		d.checkTemplateFile(a, g.Name, g.Template)
	case "content":
		g.Content, _ = d.Str(a, d.Ctx)
	case "format":
		g.Format, _ = d.OneOf(a, d.Ctx, plan.FormatPlain, plan.FormatINI)
	case "path":
		g.Path, _ = d.Str(a, d.Ctx)
		d.checkConfPath(a, g.Name, g.Path)
	case "manager":
		g.Manager, _ = d.OneOf(a, d.Ctx, plan.ManagerSystemd, plan.ManagerDirect)
	case "unit":
		g.Unit, _ = d.Str(a, d.Ctx)
	case "command":
		g.Command, _ = d.Str(a, d.Ctx)
	case "flags":
		g.Flags, _ = d.Strings(a, d.Ctx)
	case "restart":
		g.Restart, _ = d.Str(a, d.Ctx)
	case "health":
		g.Health, _ = d.Str(a, d.Ctx)
		d.checkHealthURL(a, g.Health)
	case "ports":
		g.Ports = d.ports(a)
	case "after_start":
		g.AfterStart, _ = d.Strings(a, d.Ctx)
	case "settings":
		g.Settings = d.decodeSettings(a.Expr, d.Ctx)
	case "packages":
		g.Packages, g.PackagesSet = d.packages(a)
	case "catalog":
		g.Catalog, _ = d.Str(a, d.Ctx)
	case "unchecked":
		g.Unchecked, _ = d.Strings(a, d.Ctx)
	}
}

// checkGeneric checks what a generic service needs as a whole: one
// template, a way to start it, and a health check.
func (d *decoder) checkGeneric(g *plan.Generic, b *hcl.Block, c *hcl.BodyContent) {
	if g.Path != "" && (g.Template == "") == (g.Content == "") {
		d.Errorf(b.DefRange.Ptr(), "Generic service needs one template",
			"service %q: its conf at path needs template (a file) or content (the template inline), one of them", g.Name)
	}
	if g.Path == "" && (g.Template != "" || g.Content != "") {
		d.Errorf(b.DefRange.Ptr(), "Missing path", "service %q: path is where its template's conf goes on the host", g.Name)
	}
	switch {
	case g.Manager == plan.ManagerSystemd && g.Unit == "":
		d.Errorf(b.DefRange.Ptr(), "Missing unit", "service %q: manager = \"systemd\" needs unit, the systemd unit to restart", g.Name)
	case g.Manager == plan.ManagerDirect && g.Command == "":
		d.Errorf(b.DefRange.Ptr(), "Missing command",
			"service %q: manager = \"direct\" needs command, the daemon's foreground command line (benchbed keeps its pid and log)", g.Name)
	}
	if g.Manager == plan.ManagerSystemd && c.Attributes["flags"] != nil {
		d.Errorf(c.Attributes["flags"].NameRange.Ptr(), "Flags need a direct start",
			"service %q: flags are added to command, which only manager = \"direct\" runs", g.Name)
	}
	if g.Health == "" {
		d.Errorf(b.DefRange.Ptr(), "Missing health", "service %q: health is tcp://ADDR:PORT, an http:// URL (an empty ADDR is the host's: http://:80/) or a command that exits 0 when the service serves", g.Name)
	}
}

// ports decodes a list of TCP ports.
func (d *decoder) ports(a *hcl.Attribute) []int {
	ps, ok := d.Strings(a, d.Ctx)
	if !ok {
		return nil
	}
	var out []int
	for _, p := range ps {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			d.Errorf(a.Expr.Range().Ptr(), "Invalid port", "port %q is not 1..65535", p)
			return nil
		}
		out = append(out, n)
	}
	return out
}

// decodeGenericRun decodes a variant's service "NAME" { flags, after_start } block.
func (d *decoder) decodeGenericRun(b *hcl.Block, ctx *hcl.EvalContext) *plan.GenericRun {
	r := &plan.GenericRun{DefRange: b.DefRange}
	c := d.Attrs(b.Body, []string{"flags", "after_start"})
	if a := c.Attributes["flags"]; a != nil {
		r.Flags, _ = d.Strings(a, ctx)
	}
	if a := c.Attributes["after_start"]; a != nil {
		r.AfterStart, _ = d.Strings(a, ctx)
	}
	return r
}
