package plan

import (
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// localDecl is one local value before evaluation.
type localDecl struct {
	attr *hcl.Attribute
}

// decodeLocals evaluates the locals blocks in dependency order: a local is
// evaluated once every local it references has a value. Locals left over
// reference each other in a cycle.
func (d *decoder) decodeLocals(blocks []*hcl.Block) {
	d.locals = map[string]localDecl{}
	for _, b := range blocks {
		attrs, diags := b.Body.JustAttributes()
		d.diags = append(d.diags, diags...)
		for _, a := range sortedAttrs(attrs) {
			if prev, dup := d.locals[a.Name]; dup {
				d.errorf(a.NameRange.Ptr(), "Duplicate local value", "local %q is already defined at %s", a.Name, prev.attr.NameRange)
				continue
			}
			d.locals[a.Name] = localDecl{attr: a}
		}
	}
	values := map[string]cty.Value{}
	pending := make([]string, 0, len(d.locals))
	for n := range d.locals {
		pending = append(pending, n)
	}
	sort.Slice(pending, func(i, j int) bool {
		return d.locals[pending[i]].attr.Range.Start.Byte < d.locals[pending[j]].attr.Range.Start.Byte
	})
	for len(pending) > 0 {
		var next []string
		for _, n := range pending {
			if !d.localReady(d.locals[n].attr, values) {
				next = append(next, n)
				continue
			}
			d.ctx.Variables["local"] = cty.ObjectVal(values)
			v, diags := d.eval(d.locals[n].attr.Expr, d.ctx)
			d.diags = append(d.diags, diags...)
			if diags.HasErrors() {
				v = cty.DynamicVal
			}
			values[n] = v
		}
		if len(next) == len(pending) {
			a := d.locals[next[0]].attr
			d.errorf(a.Expr.Range().Ptr(), "Local value cycle", "locals %s depend on each other", strings.Join(next, ", "))
			for _, n := range next {
				values[n] = cty.DynamicVal
			}
			break
		}
		pending = next
	}
	d.ctx.Variables["local"] = cty.ObjectVal(values)
}

// localReady reports whether every declared local that a references has a
// value already.
func (d *decoder) localReady(a *hcl.Attribute, values map[string]cty.Value) bool {
	for _, t := range a.Expr.Variables() {
		if t.RootName() != "local" || len(t) < 2 {
			continue
		}
		step, ok := t[1].(hcl.TraverseAttr)
		if !ok {
			continue
		}
		if _, declared := d.locals[step.Name]; !declared {
			continue
		}
		if _, done := values[step.Name]; !done {
			return false
		}
	}
	return true
}
