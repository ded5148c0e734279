package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// localDecl is one local value before evaluation.
type localDecl struct {
	attr *hcl.Attribute
}

// DecodeLocals evaluates the locals blocks in dependency order: a local is
// evaluated once, after every local it references (evalLocals). Locals
// left over reference each other in a cycle.
func (d *Decoder) DecodeLocals(blocks []*hcl.Block) {
	d.locals = map[string]localDecl{}
	for _, b := range blocks {
		attrs, diags := b.Body.JustAttributes()
		d.Diags = append(d.Diags, diags...)
		for _, a := range SortedAttrs(attrs) {
			if prev, dup := d.locals[a.Name]; dup {
				d.Errorf(a.NameRange.Ptr(), "Duplicate local value", "local %q is already defined at %s", a.Name, prev.attr.NameRange)
				continue
			}
			if len(d.locals) == MaxLocals {
				d.Errorf(a.NameRange.Ptr(), "Too many locals", "a testbed has at most %d local values", MaxLocals)
			}
			if len(d.locals) >= MaxLocals {
				continue
			}
			d.locals[a.Name] = localDecl{attr: a}
		}
	}
	values := d.evalLocals()
	d.Ctx.Variables["local"] = cty.ObjectVal(values)
}

// localDeps returns the declared locals a references, and whether it
// reads the local object whole (keys(local)).
func (d *Decoder) localDeps(a *hcl.Attribute) (deps []string, whole bool) {
	seen := map[string]bool{}
	for _, t := range a.Expr.Variables() {
		if t.RootName() != "local" {
			continue
		}
		if len(t) < 2 {
			whole = true
			continue
		}
		step, ok := t[1].(hcl.TraverseAttr)
		if !ok {
			whole = true
			continue
		}
		if _, declared := d.locals[step.Name]; declared && !seen[step.Name] {
			seen[step.Name] = true
			deps = append(deps, step.Name)
		}
	}
	return deps, whole
}
