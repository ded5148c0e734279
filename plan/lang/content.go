package lang

import "github.com/hashicorp/hcl/v2"

// Attrs decodes body against a schema of attribute names (a name ending in
// "!" is required) and the given block types.
func (d *Decoder) Attrs(body hcl.Body, names []string, blocks ...hcl.BlockHeaderSchema) *hcl.BodyContent {
	schema := &hcl.BodySchema{Blocks: blocks}
	for _, n := range names {
		req := n[len(n)-1] == '!'
		if req {
			n = n[:len(n)-1]
		}
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: n, Required: req})
	}
	c, diags := body.Content(schema)
	d.Diags = append(d.Diags, diags...)
	return c
}

// Single returns the one block of a type that may appear at most once,
// reporting the extra ones.
func (d *Decoder) Single(blocks []*hcl.Block) *hcl.Block {
	if len(blocks) == 0 {
		return nil
	}
	for _, b := range blocks[1:] {
		d.Errorf(b.DefRange.Ptr(), "Duplicate "+b.Type+" block",
			"only one %s block is allowed; the first is at %s", b.Type, blocks[0].DefRange)
	}
	return blocks[0]
}

// CheckUnique reports a list attribute that names something twice.
func (d *Decoder) CheckUnique(a *hcl.Attribute, list []string, what string) {
	seen := map[string]bool{}
	for _, s := range list {
		if seen[s] {
			d.Errorf(a.Expr.Range().Ptr(), "Duplicate "+what, "%s %q is listed twice", what, s)
		}
		seen[s] = true
	}
}
