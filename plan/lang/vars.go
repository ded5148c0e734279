package lang

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

// DecodeVariables decodes the variable blocks and resolves their values:
// default, then BENCHBED_VAR_name, then -var-file files in order, then -var.
func (d *Decoder) DecodeVariables(blocks []*hcl.Block) {
	d.vars = map[string]*varDecl{}
	var order []string
	for _, b := range blocks {
		name := b.Labels[0]
		if prev, dup := d.vars[name]; dup {
			d.Errorf(b.LabelRanges[0].Ptr(), "Duplicate variable", "variable %q is already declared at %s", name, prev.v.DefRange)
			continue
		}
		if !hclsyntax.ValidIdentifier(name) {
			d.Errorf(b.LabelRanges[0].Ptr(), "Invalid variable name", "%q is not a valid identifier", name)
			continue
		}
		vd := d.decodeVariable(b)
		d.vars[name] = vd
		d.Variables[name] = vd.v
		order = append(order, name)
	}
	d.applyEnv()
	for _, f := range d.Opts.VarFiles {
		d.applyVarFile(f)
	}
	d.applyVarFlags()
	for _, name := range order {
		d.finishVariable(d.vars[name])
	}
}

func (d *Decoder) decodeVariable(b *hcl.Block) *varDecl {
	content, diags := b.Body.Content(variableSchema)
	d.Diags = append(d.Diags, diags...)
	v := &Variable{Name: b.Labels[0], Type: "any", DefRange: b.DefRange}
	vd := &varDecl{v: v, ty: cty.DynamicPseudoType, value: cty.NilVal}
	if a := content.Attributes["type"]; a != nil {
		ty, tdiags := typeexpr.TypeConstraint(a.Expr)
		d.Diags = append(d.Diags, tdiags...)
		if !tdiags.HasErrors() {
			vd.ty, v.Type = ty, typeexpr.TypeString(ty)
		}
	}
	if a := content.Attributes["description"]; a != nil {
		v.Description, _ = d.Str(a, nil)
	}
	if a := content.Attributes["sensitive"]; a != nil {
		v.Sensitive, _ = d.Bool(a, nil)
	}
	if a := content.Attributes["default"]; a != nil {
		val, vdiags := a.Expr.Value(nil)
		d.Diags = append(d.Diags, vdiags...)
		if !vdiags.HasErrors() && !val.IsNull() {
			d.setVar(vd, val, a.Expr.Range().Ptr(), "default")
		}
	}
	return vd
}

// setVar converts val to the variable's type and records it as its value.
func (d *Decoder) setVar(vd *varDecl, val cty.Value, subject *hcl.Range, from string) {
	conv, err := convert.Convert(val, vd.ty)
	if err != nil {
		d.Errorf(subject, "Invalid value for variable", "%s for variable %q: %s is required: %s",
			from, vd.v.Name, typeexpr.TypeString(vd.ty), err)
		vd.failed = true
		return
	}
	vd.value, vd.failed = conv, false
	vd.v.Set = true
}

// applyEnv applies BENCHBED_VAR_name=value from opts.Environ.
func (d *Decoder) applyEnv() {
	for _, kv := range d.Opts.Environ {
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
func (d *Decoder) applyVarFlags() {
	names := make([]string, 0, len(d.Opts.Vars))
	for n := range d.Opts.Vars {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		vd := d.vars[name]
		if vd == nil {
			d.Errorf(nil, "Undeclared variable", "-var %s: the testbed declares no variable %q", name, name)
			continue
		}
		d.setRaw(vd, d.Opts.Vars[name], "-var "+name)
	}
}

// setRaw sets a variable from command-line or environment text: taken as is
// for a string variable, parsed as an HCL expression otherwise.
func (d *Decoder) setRaw(vd *varDecl, raw, from string) {
	if vd.ty == cty.String || vd.ty == cty.DynamicPseudoType {
		d.setVar(vd, cty.StringVal(raw), nil, from)
		return
	}
	diags := Prescan([]byte(raw), from, true)
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
	d.Errorf(nil, "Invalid value for variable", "%s: %s", from, diags.Error())
	vd.failed = true
}

// applyVarFile reads a -var-file: HCL attributes (or JSON for *.json) of the
// form name = value.
func (d *Decoder) applyVarFile(path string) {
	src, err := ReadLimited(path)
	if err != nil {
		d.Errorf(nil, "Cannot read variables file", "%s", err)
		return
	}
	var f *hcl.File
	var diags hcl.Diagnostics
	if strings.HasSuffix(path, ".json") {
		if diags = PrescanJSON(src, path); !diags.HasErrors() {
			f, diags = json.Parse(src, path)
		}
	} else if diags = Prescan(src, path, false); !diags.HasErrors() {
		f, diags = hclsyntax.ParseConfig(src, path, hcl.InitialPos)
	}
	d.Diags = append(d.Diags, diags...)
	if f == nil || diags.HasErrors() {
		return
	}
	d.Files[path] = f
	attrs, diags := f.Body.JustAttributes()
	d.Diags = append(d.Diags, diags...)
	for _, a := range SortedAttrs(attrs) {
		vd := d.vars[a.Name]
		if vd == nil {
			d.Errorf(a.NameRange.Ptr(), "Undeclared variable", "the testbed declares no variable %q", a.Name)
			continue
		}
		val, vdiags := a.Expr.Value(nil)
		d.Diags = append(d.Diags, vdiags...)
		if !vdiags.HasErrors() {
			d.setVar(vd, val, a.Expr.Range().Ptr(), "value")
		}
	}
}

// finishVariable checks that a variable has a value and records it.
func (d *Decoder) finishVariable(vd *varDecl) {
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
		d.Errorf(v.DefRange.Ptr(), summary, "variable %q has no default; set it with -var %s=..., -var-file or %s%s",
			v.Name, v.Name, EnvVarPrefix, v.Name)
		vd.value = cty.DynamicVal
		return
	}
	v.Value = ValueText(vd.value)
	if v.Sensitive {
		d.AddSensitive(v.Value)
		d.AddSensitiveLeaves(vd.value)
		vd.value = vd.value.Mark(markSensitive)
	}
}

// AddSensitive records a secret to mask in output.
func (d *Decoder) AddSensitive(s string) {
	if s == "" {
		return
	}
	if d.sens == nil {
		d.sens = map[string]bool{}
	}
	if !d.sens[s] {
		d.sens[s] = true
		d.Sensitive = append(d.Sensitive, s)
	}
}

// varObject returns var.* for the evaluation context.
func (d *Decoder) varObject() cty.Value {
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

// SortedAttrs returns attributes in source order.
func SortedAttrs(attrs hcl.Attributes) []*hcl.Attribute {
	out := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Range.Start.Byte < out[j].Range.Start.Byte })
	return out
}

// ValueText renders a value for display: strings as is, numbers and bools as
// in an INI file, anything else as JSON-like text.
func ValueText(v cty.Value) string {
	v, _ = v.UnmarkDeep()
	if s, err := ScalarText(v); err == nil {
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

// Variable is a declared input variable and its resolved value.
type Variable struct {
	Name        string
	Type        string // "string", "number", "bool", "list", "map", "any"
	Description string
	Sensitive   bool
	Value       string    // resolved value rendered as a string ("" when unset)
	Set         bool      // a default, -var, -var-file or BENCHBED_VAR_ set it
	DefRange    hcl.Range // the variable block
}

// BlockVariable is the type name of a variable block.
const BlockVariable = "variable"
