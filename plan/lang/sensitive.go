package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// hiddenDetail replaces the detail of a diagnostic raised while evaluating
// an expression that reads a sensitive value: HCL's and cty's messages
// quote the values they got, and a value derived from a secret (upper,
// substr, an interpolation) is not yet known to the masking then.
const hiddenDetail = "(the detail is hidden: the expression reads a sensitive value)"

// Eval evaluates expr in ctx like expr.Value, and keeps secrets with the
// Value rather than the text: every string a sensitive (marked) result
// holds is recorded for masking, and the diagnostics of an expression that
// reads a sensitive value lose their detail. Every expression of a
// testbed outside the variable blocks goes through eval.
func (d *Decoder) Eval(expr hcl.Expression, ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if d.overBudget {
		return cty.DynamicVal, nil // reported once
	}
	v, diags := expr.Value(ctx)
	marked := false
	if v != cty.NilVal && !diags.HasErrors() {
		var big *hcl.Diagnostic
		if big, marked = d.CheckSize(expr, v); big != nil {
			return cty.DynamicVal, hcl.Diagnostics{big}
		}
	}
	if marked {
		d.AddSensitiveValue(v)
		d.AddSensitiveParts(expr, ctx)
	}
	if len(diags) > 0 && readsSensitive(expr, ctx) {
		diags = hideDetails(diags)
	}
	return v, diags
}

// AddSensitiveParts records the sensitive values of expr's parts: in
// "x = ${lower(var.pw)}" the part lower(var.pw) is a secret of its own,
// which a conf built from the whole string holds without the "x = ".
func (d *Decoder) AddSensitiveParts(expr hcl.Expression, ctx *hcl.EvalContext) {
	se, ok := expr.(hclsyntax.Expression)
	if !ok {
		return
	}
	_ = hclsyntax.VisitAll(se, func(n hclsyntax.Node) hcl.Diagnostics {
		if part, ok := n.(hclsyntax.Expression); ok && part != se {
			if _, lit := part.(*hclsyntax.LiteralValueExpr); !lit {
				if v, diags := part.Value(ctx); !diags.HasErrors() {
					d.AddSensitiveValue(v)
				}
			}
		}
		return nil
	})
}

// AddSensitiveValue records every string, number and bool of v that is
// marked sensitive (or lies inside a marked collection), and the text of
// v as a whole when v is marked.
func (d *Decoder) AddSensitiveValue(v cty.Value) {
	if !v.ContainsMarked() {
		return
	}
	_ = cty.Walk(v, func(_ cty.Path, x cty.Value) (bool, error) {
		if !x.IsMarked() {
			return true, nil
		}
		d.AddSensitiveLeaves(x)
		return false, nil
	})
}

// AddSensitiveLeaves records x's text and that of every scalar inside it.
func (d *Decoder) AddSensitiveLeaves(x cty.Value) {
	x, _ = x.UnmarkDeep()
	if x.IsNull() || !x.IsKnown() {
		return
	}
	if s, err := ScalarText(x); err == nil {
		d.AddSensitive(s)
		return
	}
	if x.IsWhollyKnown() {
		d.AddSensitive(ValueText(x))
	}
	if x.CanIterateElements() {
		for it := x.ElementIterator(); it.Next(); {
			_, e := it.Element() // keys are the structure, not the secret
			d.AddSensitiveLeaves(e)
		}
	}
}

// readsSensitive reports whether expr reads a value marked sensitive:
// a sensitive variable, or a local or each value derived from one.
func readsSensitive(expr hcl.Expression, ctx *hcl.EvalContext) bool {
	if ctx == nil {
		return false
	}
	for _, t := range expr.Variables() {
		root, ok := ctx.Variables[t.RootName()]
		if !ok {
			for p := ctx.Parent(); p != nil && !ok; p = p.Parent() {
				root, ok = p.Variables[t.RootName()]
			}
		}
		if !ok {
			continue
		}
		v := root
		if len(t) > 1 {
			rel, diags := hcl.Traversal(t[1:2]).TraverseRel(root)
			if diags.HasErrors() {
				continue
			}
			v = rel
		}
		if v.ContainsMarked() {
			return true
		}
	}
	return false
}

// hideDetails returns copies of diags without their details (and without
// the values they carry).
func hideDetails(diags hcl.Diagnostics) hcl.Diagnostics {
	out := make(hcl.Diagnostics, len(diags))
	for i, dg := range diags {
		c := *dg
		c.Detail = hiddenDetail
		c.Expression, c.EvalContext, c.Extra = nil, nil, nil
		out[i] = &c
	}
	return out
}
