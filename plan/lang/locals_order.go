package lang

import (
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// evalLocals evaluates every declared local once, in dependency order
// (Kahn's algorithm over the references, ties in source order), each in a
// context that holds only the locals it references: the work is linear in
// the locals and their references, whatever their order in the file. A
// local whose value exceeds the value budget (checkSize) is an error.
// Locals in a cycle are reported and unknown.
func (d *Decoder) evalLocals() map[string]cty.Value {
	names := make([]string, 0, len(d.locals))
	for n := range d.locals {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		return d.locals[names[i]].attr.Range.Start.Byte < d.locals[names[j]].attr.Range.Start.Byte
	})
	deps := map[string][]string{}
	whole := map[string]bool{}
	users := map[string][]string{}
	waiting := map[string]int{}
	var ready []string
	for _, n := range names {
		deps[n], whole[n] = d.localDeps(d.locals[n].attr)
		waiting[n] = len(deps[n])
		for _, dep := range deps[n] {
			users[dep] = append(users[dep], n)
		}
		if waiting[n] == 0 {
			ready = append(ready, n)
		}
	}
	values := map[string]cty.Value{}
	for len(ready) > 0 {
		n := ready[0]
		ready = ready[1:]
		values[n] = d.evalLocal(n, deps[n], whole[n], values)
		for _, u := range users[n] {
			if waiting[u]--; waiting[u] == 0 {
				ready = append(ready, u)
			}
		}
	}
	var cycle []string
	for _, n := range names {
		if _, done := values[n]; !done {
			cycle = append(cycle, n)
		}
	}
	if len(cycle) > 0 {
		a := d.locals[cycle[0]].attr
		d.Errorf(a.Expr.Range().Ptr(), "Local value cycle", "locals %s depend on each other", strings.Join(cycle, ", "))
		for _, n := range cycle {
			values[n] = cty.DynamicVal
		}
	}
	return values
}

// evalLocal evaluates local n with the values of its deps (all locals so
// far when it reads the local object whole).
func (d *Decoder) evalLocal(n string, deps []string, whole bool, values map[string]cty.Value) cty.Value {
	own := map[string]cty.Value{}
	if whole {
		for k, v := range values {
			own[k] = v
		}
	}
	for _, dep := range deps {
		own[dep] = values[dep]
	}
	ctx := d.Ctx.NewChild()
	ctx.Variables = map[string]cty.Value{"local": cty.ObjectVal(own)}
	a := d.locals[n].attr
	v, diags := d.Eval(a.Expr, ctx)
	d.Diags = append(d.Diags, diags...)
	if diags.HasErrors() {
		return cty.DynamicVal
	}
	return v
}
