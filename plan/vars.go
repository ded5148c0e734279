package plan

import (
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// EnvVarPrefix prefixes the environment variables that set testbed variables.
const EnvVarPrefix = "BENCHBED_VAR_"

// markSensitive is the cty mark carried by values derived from a sensitive
// variable.
const markSensitive = "sensitive"

// varDecl is a variable block while its value is being resolved.
type varDecl struct {
	v      *Variable
	ty     cty.Type
	value  cty.Value
	failed bool // a value was given but invalid (already reported)
}

var variableSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "type"}, {Name: "default"}, {Name: "description"}, {Name: "sensitive"},
}}

// decodeVariables decodes the variable blocks and resolves their values:
// default, then BENCHBED_VAR_name, then -var-file files in order, then -var.
func (d *decoder) decodeVariables(blocks []*hcl.Block) {
	d.vars = map[string]*varDecl{}
	var order []string
	for _, b := range blocks {
		name := b.Labels[0]
		if prev, dup := d.vars[name]; dup {
			d.errorf(b.LabelRanges[0].Ptr(), "Duplicate variable", "variable %q is already declared at %s", name, prev.v.DefRange)
			continue
		}
		if !hclsyntax.ValidIdentifier(name) {
			d.errorf(b.LabelRanges[0].Ptr(), "Invalid variable name", "%q is not a valid identifier", name)
			continue
		}
		vd := d.decodeVariable(b)
		d.vars[name] = vd
		d.tb.Variables[name] = vd.v
		order = append(order, name)
	}
	d.applyEnv()
	for _, f := range d.opts.VarFiles {
		d.applyVarFile(f)
	}
	d.applyVarFlags()
	for _, name := range order {
		d.finishVariable(d.vars[name])
	}
}

func (d *decoder) decodeVariable(b *hcl.Block) *varDecl {
	content, diags := b.Body.Content(variableSchema)
	d.diags = append(d.diags, diags...)
	v := &Variable{Name: b.Labels[0], Type: "any", DefRange: b.DefRange}
	vd := &varDecl{v: v, ty: cty.DynamicPseudoType, value: cty.NilVal}
	if a := content.Attributes["type"]; a != nil {
		ty, tdiags := typeexpr.TypeConstraint(a.Expr)
		d.diags = append(d.diags, tdiags...)
		if !tdiags.HasErrors() {
			vd.ty, v.Type = ty, typeexpr.TypeString(ty)
		}
	}
	if a := content.Attributes["description"]; a != nil {
		v.Description, _ = d.str(a, nil)
	}
	if a := content.Attributes["sensitive"]; a != nil {
		v.Sensitive, _ = d.boolean(a, nil)
	}
	if a := content.Attributes["default"]; a != nil {
		val, vdiags := a.Expr.Value(nil)
		d.diags = append(d.diags, vdiags...)
		if !vdiags.HasErrors() && !val.IsNull() {
			d.setVar(vd, val, a.Expr.Range().Ptr(), "default")
		}
	}
	return vd
}

// setVar converts val to the variable's type and records it as its value.
func (d *decoder) setVar(vd *varDecl, val cty.Value, subject *hcl.Range, from string) {
	conv, err := convert.Convert(val, vd.ty)
	if err != nil {
		d.errorf(subject, "Invalid value for variable", "%s for variable %q: %s is required: %s",
			from, vd.v.Name, typeexpr.TypeString(vd.ty), err)
		vd.failed = true
		return
	}
	vd.value, vd.failed = conv, false
	vd.v.Set = true
}

// applyEnv applies BENCHBED_VAR_name=value from opts.Environ.
func (d *decoder) applyEnv() {
	for _, kv := range d.opts.Environ {
		k, raw, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(k, EnvVarPrefix) {
			continue
		}
		name := strings.TrimPrefix(k, EnvVarPrefix)
		if vd := d.vars[name]; vd != nil {
			d.setRaw(vd, raw, "environment variable "+k)
		}
	}
}

// applyVarFlags applies -var name=value, in name order for stable messages.
func (d *decoder) applyVarFlags() {
	names := make([]string, 0, len(d.opts.Vars))
	for n := range d.opts.Vars {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		vd := d.vars[name]
		if vd == nil {
			d.errorf(nil, "Undeclared variable", "-var %s: the testbed declares no variable %q", name, name)
			continue
		}
		d.setRaw(vd, d.opts.Vars[name], "-var "+name)
	}
}

// setRaw sets a variable from command-line or environment text: taken as is
// for a string variable, parsed as an HCL expression otherwise.
func (d *decoder) setRaw(vd *varDecl, raw, from string) {
	if vd.ty == cty.String || vd.ty == cty.DynamicPseudoType {
		d.setVar(vd, cty.StringVal(raw), nil, from)
		return
	}
	diags := prescan([]byte(raw), from, true)
	var expr hclsyntax.Expression
	if !diags.HasErrors() {
		expr, diags = hclsyntax.ParseExpression([]byte(raw), from, hcl.InitialPos)
	}
	if !diags.HasErrors() {
		var val cty.Value
		val, diags = expr.Value(nil)
		if !diags.HasErrors() {
			d.setVar(vd, val, nil, from)
			return
		}
	}
	d.errorf(nil, "Invalid value for variable", "%s: %s", from, diags.Error())
	vd.failed = true
}

// applyVarFile reads a -var-file: HCL attributes (or JSON for *.json) of the
// form name = value.
func (d *decoder) applyVarFile(path string) {
	src, err := readLimited(path)
	if err != nil {
		d.errorf(nil, "Cannot read variables file", "%s", err)
		return
	}
	var f *hcl.File
	var diags hcl.Diagnostics
	if strings.HasSuffix(path, ".json") {
		if diags = prescanJSON(src, path); !diags.HasErrors() {
			f, diags = json.Parse(src, path)
		}
	} else if diags = prescan(src, path, false); !diags.HasErrors() {
		f, diags = hclsyntax.ParseConfig(src, path, hcl.InitialPos)
	}
	d.diags = append(d.diags, diags...)
	if f == nil || diags.HasErrors() {
		return
	}
	d.tb.Files[path] = f
	attrs, diags := f.Body.JustAttributes()
	d.diags = append(d.diags, diags...)
	for _, a := range sortedAttrs(attrs) {
		vd := d.vars[a.Name]
		if vd == nil {
			d.errorf(a.NameRange.Ptr(), "Undeclared variable", "the testbed declares no variable %q", a.Name)
			continue
		}
		val, vdiags := a.Expr.Value(nil)
		d.diags = append(d.diags, vdiags...)
		if !vdiags.HasErrors() {
			d.setVar(vd, val, a.Expr.Range().Ptr(), "value")
		}
	}
}

// finishVariable checks that a variable has a value and records it.
func (d *decoder) finishVariable(vd *varDecl) {
	v := vd.v
	if vd.failed {
		vd.value = cty.DynamicVal
		return
	}
	if !v.Set {
		summary := "No value for required variable"
		if v.Sensitive {
			summary = "No value for sensitive variable"
		}
		d.errorf(v.DefRange.Ptr(), summary, "variable %q has no default; set it with -var %s=..., -var-file or %s%s",
			v.Name, v.Name, EnvVarPrefix, v.Name)
		vd.value = cty.DynamicVal
		return
	}
	v.Value = valueText(vd.value)
	if v.Sensitive {
		d.addSensitive(v.Value)
		d.addSensitiveLeaves(vd.value)
		vd.value = vd.value.Mark(markSensitive)
	}
}

// addSensitive records a secret to mask in output.
func (d *decoder) addSensitive(s string) {
	if s == "" {
		return
	}
	if d.sens == nil {
		d.sens = map[string]bool{}
	}
	if !d.sens[s] {
		d.sens[s] = true
		d.tb.Sensitive = append(d.tb.Sensitive, s)
	}
}

// varObject returns var.* for the evaluation context.
func (d *decoder) varObject() cty.Value {
	m := map[string]cty.Value{}
	for name, vd := range d.vars {
		if vd.value == cty.NilVal {
			m[name] = cty.DynamicVal
			continue
		}
		m[name] = vd.value
	}
	return cty.ObjectVal(m)
}

// sortedAttrs returns attributes in source order.
func sortedAttrs(attrs hcl.Attributes) []*hcl.Attribute {
	out := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Range.Start.Byte < out[j].Range.Start.Byte })
	return out
}

// valueText renders a value for display: strings as is, numbers and bools as
// in an INI file, anything else as JSON-like text.
func valueText(v cty.Value) string {
	v, _ = v.UnmarkDeep()
	if s, err := scalarText(v); err == nil {
		return s
	}
	if !v.IsWhollyKnown() {
		return "(unknown)"
	}
	b, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return err.Error()
	}
	return string(b)
}
