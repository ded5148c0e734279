package plan

import (
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"benchbed/plan/lang"
	"benchbed/templates/secrets"
)

// maskedLiteral replaces a secret expression in a masked testbed copy.
const maskedLiteral = `"` + secrets.Masked + `"`

// MaskedSource returns src, the text of the testbed tb was loaded from,
// with every secret replaced by "(sensitive)", judged on the decoded
// values rather than the text: the default of a sensitive variable
// (whatever its form: escapes, $${...}, a heredoc, a list or a map), the
// constant value of an attribute or object key that names a secret
// (secrets.Key: password, auth key, tempauth's user_a_b in a filter
// section), and any constant whose value holds a secret of tb. References
// (var.pw) are kept. The rest of the text, comments included, is masked
// by tb's values and tokens. The result is what a run directory keeps as
// testbed.hcl. A src that does not parse is masked line by line
// (secrets.HCL) and by value.
func (tb *Testbed) MaskedSource(src []byte) []byte {
	diags := lang.Prescan(src, tb.File, false)
	var f *hcl.File
	if !diags.HasErrors() {
		f, diags = hclsyntax.ParseConfig(src, tb.File, hcl.InitialPos)
	}
	if diags.HasErrors() || f == nil {
		return []byte(tb.Mask(secrets.HCL(string(src))))
	}
	m := &sourceMasker{secrets: tb.Sensitive}
	if body, ok := f.Body.(*hclsyntax.Body); ok {
		m.body(body)
	}
	return []byte(tb.Mask(m.apply(src)))
}

// sourceMasker collects the byte ranges of src to replace.
type sourceMasker struct {
	secrets []string
	ranges  []maskRange
}

// maskRange is one range to replace; bare ranges are a template's literal
// part, replaced without quotes.
type maskRange struct {
	hcl.Range
	bare bool
	text string // the replacement, when not the masked literal
}

// body walks every node of the file once.
func (m *sourceMasker) body(b *hclsyntax.Body) {
	_ = hclsyntax.VisitAll(b, func(n hclsyntax.Node) hcl.Diagnostics {
		switch x := n.(type) {
		case *hclsyntax.Block:
			if a := x.Body.Attributes["default"]; x.Type == lang.BlockVariable && a != nil && sensitiveBlock(x.Body) {
				m.ranges = append(m.ranges, maskRange{Range: a.Expr.Range(), text: maskedDefault(a.Expr)})
			}
		case *hclsyntax.Attribute:
			m.keyed("", x.Name, x.Expr)
		case *hclsyntax.ObjectConsExpr:
			m.object(x)
		case *hclsyntax.TemplateExpr:
			m.constant(x, false)
		case *hclsyntax.LiteralValueExpr:
			v, _ := x.Value(nil)
			m.constant(x, v.Type() == cty.String)
		}
		return nil
	})
}

// object masks the constant values of an object's keys that name a
// secret, on their own or in the section the enclosing key names.
func (m *sourceMasker) object(o *hclsyntax.ObjectConsExpr) {
	for _, item := range o.Items {
		k := constString(item.KeyExpr)
		m.keyed("", k, item.ValueExpr)
		if inner, ok := item.ValueExpr.(*hclsyntax.ObjectConsExpr); ok {
			for _, it := range inner.Items {
				m.keyed(k, constString(it.KeyExpr), it.ValueExpr)
			}
		}
	}
}

// keyed masks expr when key (in section) names a secret and expr is a
// constant.
func (m *sourceMasker) keyed(section, key string, expr hclsyntax.Expression) {
	if key == "" || !secrets.Key(section, key) || len(expr.Variables()) > 0 {
		return
	}
	if _, obj := expr.(*hclsyntax.ObjectConsExpr); obj {
		return // its own keys decide
	}
	m.add(expr.Range(), false)
}

// constant masks e, a constant, when its value is or holds a secret.
func (m *sourceMasker) constant(e hclsyntax.Expression, bare bool) {
	if len(e.Variables()) > 0 {
		return
	}
	if v, diags := e.Value(nil); !diags.HasErrors() && m.holdsSecret(v) {
		m.add(e.Range(), bare)
	}
}

func (m *sourceMasker) add(r hcl.Range, bare bool) {
	m.ranges = append(m.ranges, maskRange{Range: r, bare: bare})
}

// constString is an object key's constant text ("" when it is not one).
func constString(e hclsyntax.Expression) string {
	v, diags := e.Value(nil)
	if diags.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return ""
	}
	return v.AsString()
}

// holdsSecret reports whether constant v is, or holds, a secret.
func (m *sourceMasker) holdsSecret(v cty.Value) bool {
	s, err := lang.ScalarText(v)
	if err != nil {
		return false
	}
	for _, sec := range m.secrets {
		if s == sec || len(sec) >= secrets.MinLen && strings.Contains(s, sec) {
			return true
		}
	}
	return false
}

// apply replaces the outermost collected ranges of src by maskedLiteral.
func (m *sourceMasker) apply(src []byte) string {
	sort.Slice(m.ranges, func(i, j int) bool {
		a, b := m.ranges[i], m.ranges[j]
		return a.Start.Byte < b.Start.Byte || a.Start.Byte == b.Start.Byte && a.End.Byte > b.End.Byte
	})
	var b strings.Builder
	at := 0
	for _, r := range m.ranges {
		if r.Start.Byte < at || r.End.Byte > len(src) {
			continue // inside a range already replaced
		}
		b.Write(src[at:r.Start.Byte])
		switch {
		case r.text != "":
			b.WriteString(r.text)
		case r.bare:
			b.WriteString(secrets.Masked)
		default:
			b.WriteString(maskedLiteral)
		}
		at = r.End.Byte
	}
	b.Write(src[at:])
	return b.String()
}

// sensitiveBlock reports whether a variable block says sensitive = true.
func sensitiveBlock(b *hclsyntax.Body) bool {
	a := b.Attributes["sensitive"]
	if a == nil {
		return false
	}
	v, diags := a.Expr.Value(nil)
	return !diags.HasErrors() && v.Type() == cty.Bool && v.IsKnown() && !v.IsNull() && v.True()
}

// maskedDefault is the masked text of a sensitive variable's default, of
// the same shape so that the copy still loads: a string, a list of one
// string, a map of one, a number or a bool.
func maskedDefault(e hclsyntax.Expression) string {
	v, diags := e.Value(nil)
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() {
		return maskedLiteral
	}
	switch ty := v.Type(); {
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		return "[" + strings.Repeat(maskedLiteral+", ", v.LengthInt()) + "]"
	case ty.IsMapType() || ty.IsObjectType():
		var keys []string
		for it := v.ElementIterator(); it.Next(); {
			k, _ := it.Element()
			keys = append(keys, strconv.Quote(k.AsString())+" = "+maskedLiteral)
		}
		return "{ " + strings.Join(keys, ", ") + " }"
	case ty == cty.Number:
		return "0"
	case ty == cty.Bool:
		return "false"
	}
	return maskedLiteral
}
