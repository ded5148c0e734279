package decode

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/lang"
)

// decodeWorkloadVariants decodes a workload's variants attribute: the
// variants it runs on, each named by its name or by its variant block's
// label, which selects every variant of the block (a for_each's points)
// when no variant has that name. An empty list, an unknown name and a
// variant selected twice are errors at the attribute. w.Variants keeps
// the variants' declaration order, whatever the list's.
func (d *decoder) decodeWorkloadVariants(w *plan.Workload, a *hcl.Attribute, ctx *hcl.EvalContext) {
	list, ok := d.Strings(a, ctx)
	if !ok {
		return
	}
	rng := a.Expr.Range()
	w.VariantsRange = rng
	if len(list) == 0 {
		d.Errorf(rng.Ptr(), "Empty variants", "workload %q: variants lists the variants it runs on, and it is empty; leave it out to run on every variant", w.Name)
		return
	}
	chosen := map[string]string{} // variant name -> the element that selected it
	for _, n := range list {
		vs := d.variantsNamed(n)
		if len(vs) == 0 {
			d.Errorf(rng.Ptr(), "Unknown variant", "workload %q: no variant is named %q; %s", w.Name, n, d.knownVariants())
			continue
		}
		for _, v := range vs {
			if by, dup := chosen[v.Name]; dup && by == n {
				d.Errorf(rng.Ptr(), "Duplicate variant", "workload %q: variant %q is listed twice", w.Name, n)
				continue
			} else if dup {
				d.Errorf(rng.Ptr(), "Duplicate variant", "workload %q: variant %q is selected twice (by %q and by %q)", w.Name, v.Name, by, n)
				continue
			}
			chosen[v.Name] = n
		}
	}
	names := make([]string, 0, len(chosen))
	for _, v := range d.tb.Variants {
		if _, ok := chosen[v.Name]; ok {
			names = append(names, v.Name)
		}
	}
	w.SetVariants(names)
}

// variantsNamed returns the variant named n, or else every variant of the
// variant blocks labelled n, in declaration order. The labels are indexed
// once (every variant is decoded before the workloads).
func (d *decoder) variantsNamed(n string) []*plan.Variant {
	if v := d.variantByName[n]; v != nil {
		return []*plan.Variant{v}
	}
	if d.variantsByBlock == nil {
		d.variantsByBlock = map[string][]*plan.Variant{}
		for _, v := range d.tb.Variants {
			d.variantsByBlock[v.Block] = append(d.variantsByBlock[v.Block], v)
		}
	}
	return d.variantsByBlock[n]
}

// knownVariants says which names a workload's variants may give: the
// variants' names, then the labels of blocks whose variants are named
// otherwise.
func (d *decoder) knownVariants() string {
	if d.variantsKnown == "" {
		d.variantsKnown = d.listVariants()
	}
	return d.variantsKnown
}

// listVariants is knownVariants' text, made once.
func (d *decoder) listVariants() string {
	var names, labels []string
	seen := map[string]bool{}
	for _, v := range d.tb.Variants {
		names = append(names, fmt.Sprintf("%q", v.Name))
		if v.Block != v.Name && !seen[v.Block] && d.variantByName[v.Block] == nil {
			seen[v.Block] = true
			labels = append(labels, fmt.Sprintf("%q", v.Block))
		}
	}
	if len(names) == 0 {
		return "the testbed has no variant"
	}
	out := "the variants are " + lang.ShortList(names)
	if len(labels) > 0 {
		out += " (block labels, each selecting its block's variants: " + lang.ShortList(labels) + ")"
	}
	return out
}

// checkRepeatVariants refuses a repeat = "auto" workload whose variants
// attribute leaves it one variant of several: it compares each other
// with the first (the baseline). A testbed of one variant has nothing to
// compare with or without it (compare says "alone").
func (d *decoder) checkRepeatVariants(w *plan.Workload) {
	if w.AutoRepeat == nil || len(w.Variants) == 0 || len(w.Variants) >= 2 || len(d.tb.Variants) < 2 {
		return
	}
	d.Errorf(w.VariantsRange.Ptr(), "Too few variants for repeat = \"auto\"",
		"workload %q: repeat = \"auto\" repeats until compare's test decides between its baseline (the first of its variants) and each other variant, and variants = %q leaves it %d",
		w.Name, w.Variants, len(w.Variants))
}

// validateVariantUse warns of a variant that no workload runs on: its
// workloads' variants attributes all leave it out, so no cell measures it.
func validateVariantUse(tb *plan.Testbed, add addFunc) {
	used := map[string]bool{}
	for _, w := range tb.Workloads {
		if w.Variants == nil {
			return // it runs on every variant (and none runs: said)
		}
		for _, n := range w.Variants {
			used[n] = true
		}
	}
	for _, v := range tb.Variants {
		if len(tb.Workloads) > 0 && !used[v.Name] {
			add(hcl.DiagWarning, v.DefRange, "Variant runs no workload",
				"variant %q: every workload's variants attribute leaves it out, so the sweep measures nothing in it", v.Name)
		}
	}
}
