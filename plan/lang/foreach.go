package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// EachPoint is one element of a block's for_each: the evaluation context in
// which each.key and each.value are set, and the name the element gets
// unless the block has a name attribute.
type EachPoint struct {
	Index      int              // 0-based position in the for_each
	Key, Value cty.Value        // each.key and each.value
	Name       string           // label=<each.value>, or the label
	InMap      bool             // the for_each is a map (or an object): Key is a string
	Ctx        *hcl.EvalContext // the decoder's context with each
}

// ForEach evaluates the for_each attribute fe of a variant, workload or host
// block labelled label and returns one point per element, in order (a
// list's order; a map's or set's sorted order). It reports a value that is
// no collection or an empty one; ok is false then or after any error.
func (d *Decoder) ForEach(fe *hcl.Attribute, kind, label string) (points []EachPoint, ok bool) {
	v, diags := d.Eval(fe.Expr, d.Ctx)
	d.Diags = append(d.Diags, diags...)
	if diags.HasErrors() || !v.IsWhollyKnown() {
		return nil, false
	}
	v, _ = v.UnmarkDeep()
	if v.IsNull() || !(v.Type().IsListType() || v.Type().IsTupleType() || v.Type().IsSetType() ||
		v.Type().IsMapType() || v.Type().IsObjectType()) {
		d.Errorf(fe.Expr.Range().Ptr(), "Invalid for_each", "for_each must be a list or a map")
		return nil, false
	}
	if !d.CheckForEachCount(fe, kind, v.LengthInt(), MaxForEach) {
		return nil, false
	}
	if v.LengthInt() == 0 {
		d.Errorf(fe.Expr.Range().Ptr(), "Empty for_each", "%s %q: for_each gives no %ss", kind, label, kind)
		return nil, false
	}
	isMap := v.Type().IsMapType() || v.Type().IsObjectType()
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if !isMap && v.Type().IsSetType() {
			k = e
		}
		ctx := d.Ctx.NewChild()
		ctx.Variables = map[string]cty.Value{"each": cty.ObjectVal(map[string]cty.Value{"key": k, "value": e})}
		points = append(points, EachPoint{Index: len(points), Key: k, Value: e,
			Name: defaultEachName(label, e), InMap: isMap, Ctx: ctx})
	}
	return points, true
}

// defaultEachName is label=value for a primitive each.value, else label.
func defaultEachName(label string, e cty.Value) string {
	if s, err := ScalarText(e); err == nil {
		return label + "=" + s
	}
	return label
}

// NoEachContext is the context of a block without for_each. When the body
// refers to each.key or each.value anyway, every such reference is reported
// and each is set to an unknown value, so that the attributes using it are
// skipped instead of reported a second time as unknown variables.
func (d *Decoder) NoEachContext(body hcl.Body, kind, label string) *hcl.EvalContext {
	var refs []hcl.Traversal
	walkExprs(body, func(e hcl.Expression) {
		for _, t := range e.Variables() {
			if t.RootName() == "each" {
				refs = append(refs, t)
			}
		}
	})
	if len(refs) == 0 {
		return d.Ctx
	}
	for _, t := range refs {
		d.Errorf(t.SourceRange().Ptr(), "each outside for_each",
			"%s %q has no for_each: each.key and each.value exist only in a variant, workload or host block with for_each", kind, label)
	}
	ctx := d.Ctx.NewChild()
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

// CheckForEachCount refuses a for_each of more than max points at fe.
func (d *Decoder) CheckForEachCount(fe *hcl.Attribute, kind string, n, max int) bool {
	if n <= max {
		return true
	}
	d.Errorf(fe.Expr.Range().Ptr(), "Too many "+kind+"s", "for_each gives %d %ss; a testbed has at most %d", n, kind, max)
	return false
}
