package decode

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"benchbed/plan"
	"benchbed/plan/lang"
	"benchbed/templates/secrets"
)

// decodeSettings decodes section -> key -> value from expr. Written as an
// object constructor ({ DEFAULT = { workers = 6 } }) every key keeps the
// range of its own item; any other expression (merge(...), local.x) is
// evaluated whole and its keys get the expression's range.
func (d *decoder) decodeSettings(expr hcl.Expression, ctx *hcl.EvalContext) plan.Settings {
	out := plan.Settings{}
	if obj, ok := expr.(*hclsyntax.ObjectConsExpr); ok {
		for _, item := range obj.Items {
			name, ok := d.objectKey(item.KeyExpr, ctx)
			if !ok {
				continue
			}
			d.mergeSection(out, name, d.decodeSection(item.ValueExpr, ctx), item.KeyExpr.Range())
		}
		return d.secretKeys(out)
	}
	v, marks, ok := d.objectValue(expr, ctx, "settings")
	if !ok {
		return out
	}
	for it := v.ElementIterator(); it.Next(); {
		k, sec := it.Element()
		keys := d.sectionFromValue(sec.WithMarks(marks), expr.Range(), k.AsString())
		d.mergeSection(out, k.AsString(), keys, expr.Range())
	}
	return d.secretKeys(out)
}

// mergeSection adds section keys to s, reporting a section given twice.
func (d *decoder) mergeSection(s plan.Settings, name string, keys map[string]plan.Setting, rng hcl.Range) {
	if keys == nil || !d.checkSectionName(name, rng) {
		return
	}
	if _, dup := s[name]; dup {
		d.Errorf(rng.Ptr(), "Duplicate settings section", "section %q is given twice", name)
		return
	}
	for k, v := range keys {
		v.SectionRange = rng
		keys[k] = v
	}
	s[name] = keys
}

// decodeSection decodes one section's key = value object.
func (d *decoder) decodeSection(expr hcl.Expression, ctx *hcl.EvalContext) map[string]plan.Setting {
	obj, ok := expr.(*hclsyntax.ObjectConsExpr)
	if !ok {
		v, marks, ok := d.objectValue(expr, ctx, "a settings section")
		if !ok {
			return nil
		}
		return d.sectionFromValue(v.WithMarks(marks), expr.Range(), "")
	}
	out := map[string]plan.Setting{}
	for _, item := range obj.Items {
		key, ok := d.objectKey(item.KeyExpr, ctx)
		if !ok {
			continue
		}
		if _, dup := out[key]; dup {
			d.Errorf(item.KeyExpr.Range().Ptr(), "Duplicate setting", "key %q is set twice in this section", key)
			continue
		}
		v, diags := d.Eval(item.ValueExpr, ctx)
		d.Diags = append(d.Diags, diags...)
		if diags.HasErrors() {
			continue
		}
		rng := hcl.RangeBetween(item.KeyExpr.Range(), item.ValueExpr.Range())
		if s, ok := d.setting(v, rng, key); ok {
			out[key] = s
		}
	}
	return out
}

// sectionFromValue turns an evaluated object into settings that all carry rng.
func (d *decoder) sectionFromValue(v cty.Value, rng hcl.Range, name string) map[string]plan.Setting {
	v, marks := v.Unmark()
	if v.IsNull() || !v.IsKnown() || !(v.Type().IsObjectType() || v.Type().IsMapType()) {
		d.Errorf(rng.Ptr(), "Invalid settings section", "section %q must be an object of key = value", name)
		return nil
	}
	out := map[string]plan.Setting{}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if len(marks) > 0 {
			e = e.WithMarks(marks)
		}
		if s, ok := d.setting(e, rng, k.AsString()); ok {
			out[k.AsString()] = s
		}
	}
	return out
}

// setting renders one value as the INI file will hold it.
func (d *decoder) setting(v cty.Value, rng hcl.Range, key string) (plan.Setting, bool) {
	if !v.IsWhollyKnown() {
		return plan.Setting{}, false // an earlier error made it unknown
	}
	v, marks := v.UnmarkDeep()
	text, err := lang.ScalarText(v)
	if err != nil {
		d.Errorf(rng.Ptr(), "Invalid setting value", "%s: %s; settings are strings, numbers or bools (join a list with join(\" \", list))", key, err)
		return plan.Setting{}, false
	}
	s := plan.Setting{Value: text, Sensitive: len(marks) > 0, Range: rng}
	if s.Sensitive {
		d.AddSensitive(text)
	}
	return s, true
}

// objectKey evaluates an object constructor's key (a bare name or a string).
func (d *decoder) objectKey(expr hcl.Expression, ctx *hcl.EvalContext) (string, bool) {
	v, diags := d.Eval(expr, ctx)
	d.Diags = append(d.Diags, diags...)
	if diags.HasErrors() {
		return "", false
	}
	v, _ = v.UnmarkDeep()
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		d.Errorf(expr.Range().Ptr(), "Invalid key", "a settings key must be a name or a string")
		return "", false
	}
	return v.AsString(), true
}

// objectValue evaluates expr and checks that it is an object or map. It
// returns the value without its top-level marks, and those marks.
func (d *decoder) objectValue(expr hcl.Expression, ctx *hcl.EvalContext, what string) (cty.Value, cty.ValueMarks, bool) {
	v, diags := d.Eval(expr, ctx)
	d.Diags = append(d.Diags, diags...)
	if diags.HasErrors() || !v.IsWhollyKnown() {
		return cty.NilVal, nil, false
	}
	uv, marks := v.Unmark()
	if uv.IsNull() || !(uv.Type().IsObjectType() || uv.Type().IsMapType()) {
		d.Errorf(expr.Range().Ptr(), "Invalid "+what, "%s must be an object of name = value", what)
		return cty.NilVal, nil, false
	}
	return uv, marks, true
}

// secretKeys drops the keys no conf can hold (checkSettingNames), records
// for masking the value of every setting whose key names a secret
// (secrets.Key: db_password, tempauth's user_a_b in a filter section, ...)
// and returns s: such a value is then masked wherever it is printed, as a
// sensitive variable's is.
func (d *decoder) secretKeys(s plan.Settings) plan.Settings {
	d.checkSettingNames(s)
	for sec, keys := range s {
		for k, v := range keys {
			if secrets.Key(sec, k) {
				d.AddSensitive(v.Value)
			}
		}
	}
	return s
}
