package decode

import (
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"benchbed/plan"
)

// rate evaluates an error-rate attribute (max_error_rate): a share from 0
// to 1 (0.01) or a string percentage ("1%").
func (d *decoder) rate(a *hcl.Attribute, ctx *hcl.EvalContext) (float64, bool) {
	v, _, ok := d.Value(a, ctx, cty.DynamicPseudoType)
	if !ok {
		return 0, false
	}
	var text string
	switch v.Type() {
	case cty.Number:
		text = v.AsBigFloat().Text('g', -1)
		if v.AsBigFloat().Cmp(big.NewFloat(1)) > 0 {
			d.Errorf(a.Expr.Range().Ptr(), "Invalid value for "+a.Name,
				"%s is a share of the operations, from 0 to 1 (0.01 is 1 %%), or a string such as \"1%%\"; got %s", a.Name, text)
			return 0, false
		}
	case cty.String:
		text = v.AsString()
	default:
		d.Errorf(a.Expr.Range().Ptr(), "Invalid value for "+a.Name, "%s must be a number from 0 to 1 or a string such as \"1%%\"", a.Name)
		return 0, false
	}
	x, err := plan.ParseRate(text)
	if err != nil {
		d.Errorf(a.Expr.Range().Ptr(), "Invalid value for "+a.Name, "%s: %s", a.Name, err)
		return 0, false
	}
	return x, true
}
