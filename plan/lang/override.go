package lang

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// overrideSchema is schema without include and override: an override
// block holds blocks of the testbed's own kinds only.
func overrideSchema(schema *hcl.BodySchema) *hcl.BodySchema {
	s := &hcl.BodySchema{}
	for _, b := range schema.Blocks {
		if b.Type != BlockInclude && b.Type != BlockOverride {
			s.Blocks = append(s.Blocks, b)
		}
	}
	return s
}

// ApplyOverrides merges each block inside an override block into the
// testbed's block of the same type and labels, as Terraform merges an
// override file: an attribute of the override replaces the original's of
// that name, and a nested block replaces the original's nested blocks of
// the same type and labels, in place (nested blocks the original does not
// have are added after its own). Overrides apply in reading order, each
// to the block as the earlier ones left it. An override of a block that
// no file has is an error. Every attribute and block keeps its own range,
// so diagnostics name the file and line it was written at.
func (d *Decoder) ApplyOverrides(f *Files, schema *hcl.BodySchema) []*hcl.Block {
	inner := overrideSchema(schema)
	out := append([]*hcl.Block(nil), f.Blocks...)
	for _, ob := range f.Overrides {
		content, diags := ob.Body.Content(inner)
		d.Diags = append(d.Diags, diags...)
		for _, b := range content.Blocks {
			i := findBlock(out, b)
			if i < 0 && eachHint(out, b.Type) != "" {
				d.Elements = append(d.Elements, b)
				continue
			}
			if i < 0 {
				d.Errorf(b.DefRange.Ptr(), "Nothing to override",
					"no file of the testbed has a block %s to override%s", blockHeader(b), eachHint(out, b.Type))
				continue
			}
			merged, ok := mergeBlock(out[i], b)
			if !ok {
				d.Errorf(b.DefRange.Ptr(), "Cannot override", "block %s is not in HCL's native syntax", blockHeader(b))
				continue
			}
			out[i] = merged
		}
	}
	return out
}

// ElementOverride returns b merged with the overrides of its element
// named name (override { host "stor1" { ... } } for the element stor1 of
// host "stor"), in reading order, and takes them from d.Elements; b
// itself when none names it. An element's override sets neither
// for_each nor name: they are its block's.
func (d *Decoder) ElementOverride(b *hcl.Block, name string) *hcl.Block {
	for i, ov := range d.Elements {
		if ov == nil || ov.Type != b.Type || len(ov.Labels) != 1 || ov.Labels[0] != name {
			continue
		}
		d.Elements[i] = nil
		if body, ok := ov.Body.(*hclsyntax.Body); ok {
			for _, a := range []string{"for_each", "name"} {
				if attr := body.Attributes[a]; attr != nil {
					d.Errorf(attr.NameRange.Ptr(), "Cannot override", "the override of %s changes one element of a block with for_each: %s is the block's own", blockHeader(ov), a)
					return b
				}
			}
		}
		if merged, ok := mergeBlock(b, ov); ok {
			b = merged
		}
	}
	return b
}

// ReportElements reports the overrides of d.Elements that no element
// took; blocks are the testbed's.
func (d *Decoder) ReportElements(blocks []*hcl.Block) {
	for _, ov := range d.Elements {
		if ov != nil {
			d.Errorf(ov.DefRange.Ptr(), "Nothing to override",
				"no file of the testbed has a block %s to override, nor a block with for_each an element of that name%s", blockHeader(ov), eachHint(blocks, ov.Type))
		}
	}
}

// eachHint names the blocks of type typ that have for_each, "" when none
// has: an override names such a block by its label and changes every
// element of it, or one element (a host) by its name.
func eachHint(blocks []*hcl.Block, typ string) string {
	var with []string
	for _, b := range blocks {
		if body, ok := b.Body.(*hclsyntax.Body); ok && b.Type == typ && body.Attributes["for_each"] != nil {
			with = append(with, blockHeader(b)+" at "+b.DefRange.String())
		}
	}
	if len(with) == 0 {
		return ""
	}
	return "; a block with for_each (" + ShortList(with) + ") is overridden by its label for every element, and by an element's name for that element (hosts only)"
}

// findBlock returns the index of the first block of blocks with b's type
// and labels, -1 when none has them.
func findBlock(blocks []*hcl.Block, b *hcl.Block) int {
	key := blockKey(b.Type, b.Labels)
	for i, x := range blocks {
		if blockKey(x.Type, x.Labels) == key {
			return i
		}
	}
	return -1
}

// mergeBlock returns orig with ov merged into its body; orig's ranges
// (its header) are kept. ok is false when a body is not hclsyntax's.
func mergeBlock(orig, ov *hcl.Block) (*hcl.Block, bool) {
	ob, ok1 := orig.Body.(*hclsyntax.Body)
	vb, ok2 := ov.Body.(*hclsyntax.Body)
	if !ok1 || !ok2 {
		return nil, false
	}
	body := &hclsyntax.Body{Attributes: hclsyntax.Attributes{}, SrcRange: ob.SrcRange, EndRange: ob.EndRange}
	for name, a := range ob.Attributes {
		body.Attributes[name] = a
	}
	for name, a := range vb.Attributes {
		body.Attributes[name] = a
	}
	body.Blocks = mergeNested(ob.Blocks, vb.Blocks)
	out := *orig
	out.Body = body
	return &out, true
}

// mergeNested returns orig's nested blocks with those of the type and
// labels of an override block replaced by the override's, where the first
// of them stood; the override's other blocks follow.
func mergeNested(orig, ov hclsyntax.Blocks) hclsyntax.Blocks {
	byKey := map[string]hclsyntax.Blocks{}
	var keys []string
	for _, b := range ov {
		k := blockKey(b.Type, b.Labels)
		if byKey[k] == nil {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], b)
	}
	placed := map[string]bool{}
	var out hclsyntax.Blocks
	for _, b := range orig {
		k := blockKey(b.Type, b.Labels)
		if byKey[k] == nil {
			out = append(out, b)
			continue
		}
		if !placed[k] {
			placed[k] = true
			out = append(out, byKey[k]...)
		}
	}
	for _, k := range keys {
		if !placed[k] {
			out = append(out, byKey[k]...)
		}
	}
	return out
}

// blockKey identifies a block by its type and labels.
func blockKey(typ string, labels []string) string {
	return typ + "\x00" + strings.Join(labels, "\x00")
}

// blockHeader is a block's header as written: host "stor1".
func blockHeader(b *hcl.Block) string {
	s := b.Type
	for _, l := range b.Labels {
		s += ` "` + l + `"`
	}
	return s
}
