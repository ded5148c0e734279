package lang

import (
	"fmt"
	"math/big"
	"strconv"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Value evaluates an attribute and converts it to ty. It reports problems
// and returns ok=false when the value is unusable (error, null or unknown).
// The returned value is unmarked; sensitive says whether it was marked.
func (d *Decoder) Value(a *hcl.Attribute, ctx *hcl.EvalContext, ty cty.Type) (v cty.Value, sensitive, ok bool) {
	v, diags := d.Eval(a.Expr, ctx)
	d.Diags = append(d.Diags, diags...)
	if diags.HasErrors() {
		return cty.NilVal, false, false
	}
	v, marks := v.UnmarkDeep()
	sensitive = len(marks) > 0
	if v.IsNull() {
		d.Errorf(a.Expr.Range().Ptr(), "Missing value", "%s must not be null", a.Name)
		return cty.NilVal, sensitive, false
	}
	if !v.IsWhollyKnown() {
		// An unknown comes from an earlier error (an unset variable); that
		// error was already reported.
		return cty.NilVal, sensitive, false
	}
	conv, err := convert.Convert(v, ty)
	if err != nil {
		d.Errorf(a.Expr.Range().Ptr(), "Invalid value for "+a.Name, "%s must be %s: %s",
			a.Name, ty.FriendlyNameForConstraint(), err)
		return cty.NilVal, sensitive, false
	}
	return conv, sensitive, true
}

// Str evaluates a string attribute.
func (d *Decoder) Str(a *hcl.Attribute, ctx *hcl.EvalContext) (string, bool) {
	v, _, ok := d.Value(a, ctx, cty.String)
	if !ok {
		return "", false
	}
	return v.AsString(), true
}

// Secret evaluates a string attribute that holds a secret and records it
// for masking.
func (d *Decoder) Secret(a *hcl.Attribute, ctx *hcl.EvalContext) string {
	s, _ := d.Str(a, ctx)
	d.AddSensitive(s)
	return s
}

// Bool evaluates a bool attribute.
func (d *Decoder) Bool(a *hcl.Attribute, ctx *hcl.EvalContext) (bool, bool) {
	v, _, ok := d.Value(a, ctx, cty.Bool)
	if !ok {
		return false, false
	}
	return v.True(), true
}

// Number evaluates a number attribute.
func (d *Decoder) Number(a *hcl.Attribute, ctx *hcl.EvalContext) (float64, bool) {
	v, _, ok := d.Value(a, ctx, cty.Number)
	if !ok {
		return 0, false
	}
	f, _ := v.AsBigFloat().Float64()
	return f, true
}

// Integer evaluates a whole-number attribute within [min, max].
func (d *Decoder) Integer(a *hcl.Attribute, ctx *hcl.EvalContext, min, max int) (int, bool) {
	v, _, ok := d.Value(a, ctx, cty.Number)
	if !ok {
		return 0, false
	}
	bf := v.AsBigFloat()
	i, acc := bf.Int64()
	if !bf.IsInt() || acc != big.Exact || i < int64(min) || i > int64(max) {
		d.Errorf(a.Expr.Range().Ptr(), "Invalid value for "+a.Name, "%s must be a whole number from %d to %d, got %s",
			a.Name, min, max, bf.Text('g', -1))
		return 0, false
	}
	return int(i), true
}

// Strings evaluates a list-of-strings attribute.
//
// A single string where the list is expected is an error that says how
// to write it, and the list of that one string is returned (with ok
// false) so that later checks see what was meant and do not add errors
// that only follow from it.
func (d *Decoder) Strings(a *hcl.Attribute, ctx *hcl.EvalContext) ([]string, bool) {
	v, _, ok := d.Value(a, ctx, cty.DynamicPseudoType)
	if !ok {
		return nil, false
	}
	if v.Type() == cty.String {
		d.Errorf(a.Expr.Range().Ptr(), "Invalid value for "+a.Name, "%s must be a list of strings, even of one: write [%q]",
			a.Name, v.AsString())
		return []string{v.AsString()}, false
	}
	ty := cty.List(cty.String)
	v, err := convert.Convert(v, ty)
	if err != nil {
		d.Errorf(a.Expr.Range().Ptr(), "Invalid value for "+a.Name, "%s must be %s: %s",
			a.Name, ty.FriendlyNameForConstraint(), err)
		return nil, false
	}
	out := make([]string, 0, v.LengthInt())
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e.IsNull() {
			d.Errorf(a.Expr.Range().Ptr(), "Invalid value for "+a.Name, "%s must not contain null", a.Name)
			return nil, false
		}
		out = append(out, e.AsString())
	}
	return out, true
}

// maxSeconds bounds durations (a year), far beyond any benchmark run.
const maxSeconds = 365 * 24 * 3600.0

// Duration evaluates a duration attribute: a Go duration string ("1h",
// "90s") or a number of seconds.
func (d *Decoder) Duration(a *hcl.Attribute, ctx *hcl.EvalContext) (time.Duration, bool) {
	v, _, ok := d.Value(a, ctx, cty.DynamicPseudoType)
	if !ok {
		return 0, false
	}
	var dur time.Duration
	var err error
	switch v.Type() {
	case cty.Number:
		f, _ := v.AsBigFloat().Float64()
		if f > maxSeconds {
			err = fmt.Errorf("more than %d seconds", int(maxSeconds))
		}
		dur = time.Duration(f * float64(time.Second))
	case cty.String:
		dur, err = time.ParseDuration(v.AsString())
	default:
		err = fmt.Errorf("got %s", v.Type().FriendlyName())
	}
	if err == nil && (dur < 0 || dur.Seconds() > maxSeconds) {
		err = fmt.Errorf("it is negative or longer than %d seconds", int(maxSeconds))
	}
	if err != nil {
		d.Errorf(a.Expr.Range().Ptr(), "Invalid value for "+a.Name,
			"%s must be a duration such as \"90s\" or \"1h\", or a number of seconds: %s", a.Name, err)
		return 0, false
	}
	return dur, true
}

// OneOf evaluates a string attribute that must be one of allowed.
func (d *Decoder) OneOf(a *hcl.Attribute, ctx *hcl.EvalContext, allowed ...string) (string, bool) {
	s, ok := d.Str(a, ctx)
	if !ok {
		return "", false
	}
	for _, x := range allowed {
		if s == x {
			return s, true
		}
	}
	d.Errorf(a.Expr.Range().Ptr(), "Invalid value for "+a.Name, "%s must be one of %q, got %q", a.Name, allowed, s)
	return "", false
}

// ScalarText renders a string, number or bool as an INI file holds it:
// booleans true/false, whole numbers without a fraction.
func ScalarText(v cty.Value) (string, error) {
	if v.IsNull() {
		return "", fmt.Errorf("null is not a value")
	}
	if !v.IsKnown() {
		return "", fmt.Errorf("the value is unknown")
	}
	switch v.Type() {
	case cty.String:
		return v.AsString(), nil
	case cty.Bool:
		return strconv.FormatBool(v.True()), nil
	case cty.Number:
		bf := v.AsBigFloat()
		if bf.IsInt() {
			return bf.Text('f', 0), nil
		}
		f, _ := bf.Float64()
		return strconv.FormatFloat(f, 'f', -1, 64), nil
	}
	return "", fmt.Errorf("a %s is not a string, number or bool", v.Type().FriendlyName())
}
