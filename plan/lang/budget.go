package lang

import (
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// Limits on what a testbed's expressions may build: a value (a local, an
// attribute) holds at most MaxValueNodes values in all (a list of n
// Strings is n+1), and all of a testbed's values together at most
// MaxTotalNodes, so that locals doubling a list at each step, or a
// setproduct of big lists, are a clear error and not a hang.
// Strings count as one value per MaxStringChunk bytes (a value holds at
// most 4 MiB of text: MaxValueNodes chunks).
const (
	MaxValueNodes  = 1 << 16
	MaxTotalNodes  = 1 << 18
	MaxStringChunk = 64
)

var errTooLarge = errors.New("too large")

// CheckSize counts v's values, up to the limits, and returns the error
// for expr when v exceeds them (nil when it does not), and whether v holds
// a marked (sensitive) value.
func (d *Decoder) CheckSize(expr hcl.Expression, v cty.Value) (*hcl.Diagnostic, bool) {
	n, marked := 0, false
	err := countValues(v, func(k int) error {
		if n += k; n > MaxValueNodes || d.walked+n > MaxTotalNodes {
			return errTooLarge
		}
		return nil
	}, &marked)
	d.walked += n
	switch {
	case err == nil:
		return nil, marked
	case n > MaxValueNodes:
		return Diagf(hcl.DiagError, expr.Range().Ptr(), "Value too large",
			"this expression builds more than %d values (lists, maps and their elements; text counts one per %d bytes)", MaxValueNodes, MaxStringChunk), marked
	}
	d.overBudget = true
	return Diagf(hcl.DiagError, expr.Range().Ptr(), "Testbed too large",
		"the testbed's expressions build more than %d values in all", MaxTotalNodes), marked
}

// countValues calls count for v and every value inside it (with the
// values each counts for: 1, more for a long string), depth first,
// until count fails, and sets *marked when one of them is marked.
func countValues(v cty.Value, count func(int) error, marked *bool) error {
	if v.IsMarked() {
		*marked = true
		v, _ = v.Unmark()
	}
	k := 1
	if v.IsKnown() && !v.IsNull() && v.Type() == cty.String {
		k += len(v.AsString()) / MaxStringChunk
	}
	if err := count(k); err != nil {
		return err
	}
	if !v.IsKnown() || v.IsNull() || !v.CanIterateElements() {
		return nil
	}
	if ty := v.Type(); ty.IsListType() || ty.IsTupleType() {
		for _, e := range v.AsValueSlice() {
			if err := countValues(e, count, marked); err != nil {
				return err
			}
		}
		return nil
	}
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if err := countValues(e, count, marked); err != nil {
			return err
		}
	}
	return nil
}

// setProductFunc is stdlib's setproduct, refused when its result would
// exceed MaxValueNodes.
var setProductFunc = function.New(&function.Spec{
	VarParam: &function.Parameter{Name: "sets", Type: cty.DynamicPseudoType, AllowMarked: true},
	Type: func(args []cty.Value) (cty.Type, error) {
		return stdlib.SetProductFunc.ReturnType(argTypes(args))
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		n := 1
		for i, a := range args {
			a, _ = a.Unmark()
			if !a.IsKnown() || a.IsNull() || !a.CanIterateElements() {
				continue
			}
			if n *= a.LengthInt(); n > MaxValueNodes {
				return cty.NilVal, function.NewArgError(i, fmt.Errorf("the product has more than %d elements", MaxValueNodes))
			}
		}
		return stdlib.SetProductFunc.Call(args)
	},
})

func argTypes(args []cty.Value) []cty.Type {
	out := make([]cty.Type, len(args))
	for i, a := range args {
		out[i] = a.Type()
	}
	return out
}
