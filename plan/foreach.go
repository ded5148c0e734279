package plan

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// eachPoint is one element of a block's for_each: the evaluation context in
// which each.key and each.value are set, and the name the element gets
// unless the block has a name attribute.
type eachPoint struct {
	index      int              // 0-based position in the for_each
	key, value cty.Value        // each.key and each.value
	name       string           // label=<each.value>, or the label
	ctx        *hcl.EvalContext // the decoder's context with each
}

// forEach evaluates the for_each attribute fe of a variant or workload
// block labelled label and returns one point per element, in order (a
// list's order; a map's or set's sorted order). It reports a value that is
// no collection or an empty one; ok is false then or after any error.
func (d *decoder) forEach(fe *hcl.Attribute, kind, label string) (points []eachPoint, ok bool) {
	v, diags := d.eval(fe.Expr, d.ctx)
	d.diags = append(d.diags, diags...)
	if diags.HasErrors() || !v.IsWhollyKnown() {
		return nil, false
	}
	v, _ = v.UnmarkDeep()
	if v.IsNull() || !(v.Type().IsListType() || v.Type().IsTupleType() || v.Type().IsSetType() ||
		v.Type().IsMapType() || v.Type().IsObjectType()) {
		d.errorf(fe.Expr.Range().Ptr(), "Invalid for_each", "for_each must be a list or a map")
		return nil, false
	}
	if !d.checkForEachCount(fe, kind, v.LengthInt(), MaxVariants) {
		return nil, false
	}
	if v.LengthInt() == 0 {
		d.errorf(fe.Expr.Range().Ptr(), "Empty for_each", "%s %q: for_each gives no %ss", kind, label, kind)
		return nil, false
	}
	isMap := v.Type().IsMapType() || v.Type().IsObjectType()
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if !isMap && v.Type().IsSetType() {
			k = e
		}
		ctx := d.ctx.NewChild()
		ctx.Variables = map[string]cty.Value{"each": cty.ObjectVal(map[string]cty.Value{"key": k, "value": e})}
		points = append(points, eachPoint{index: len(points), key: k, value: e,
			name: defaultEachName(label, e), ctx: ctx})
	}
	return points, true
}

// defaultEachName is label=value for a primitive each.value, else label.
func defaultEachName(label string, e cty.Value) string {
	if s, err := scalarText(e); err == nil {
		return label + "=" + s
	}
	return label
}

// noEachContext is the context of a block without for_each. When the body
// refers to each.key or each.value anyway, every such reference is reported
// and each is set to an unknown value, so that the attributes using it are
// skipped instead of reported a second time as unknown variables.
func (d *decoder) noEachContext(body hcl.Body, kind, label string) *hcl.EvalContext {
	var refs []hcl.Traversal
	walkExprs(body, func(e hcl.Expression) {
		for _, t := range e.Variables() {
			if t.RootName() == "each" {
				refs = append(refs, t)
			}
		}
	})
	if len(refs) == 0 {
		return d.ctx
	}
	for _, t := range refs {
		d.errorf(t.SourceRange().Ptr(), "each outside for_each",
			"%s %q has no for_each: each.key and each.value exist only in a variant or workload block with for_each", kind, label)
	}
	ctx := d.ctx.NewChild()
	ctx.Variables = map[string]cty.Value{"each": cty.DynamicVal}
	return ctx
}

// walkExprs calls fn with every attribute expression of body and of its
// nested blocks (native syntax only; other bodies have no expressions to
// walk here).
func walkExprs(body hcl.Body, fn func(hcl.Expression)) {
	b, ok := body.(*hclsyntax.Body)
	if !ok {
		return
	}
	for _, a := range b.Attributes {
		fn(a.Expr)
	}
	for _, blk := range b.Blocks {
		walkExprs(blk.Body, fn)
	}
}
