package plan

import (
	"github.com/hashicorp/hcl/v2"
)

// Limits on a testbed's matrix: far beyond any sweep one can run (a cell
// is a measured run of minutes), and small enough that validate and plan
// stay quick.
const (
	MaxVariants  = 4096  // variants, for_each points included
	MaxWorkloads = 4096  // workloads, for_each points included
	MaxCells     = 10000 // variants x workloads x sweep.repeat
)

// checkForEachCount refuses a for_each of more than max points at fe.
func (d *decoder) checkForEachCount(fe *hcl.Attribute, kind string, n, max int) bool {
	if n <= max {
		return true
	}
	d.errorf(fe.Expr.Range().Ptr(), "Too many "+kind+"s", "for_each gives %d %ss; a testbed has at most %d", n, kind, max)
	return false
}

// variantSeen returns the variant already named name, or nil; it indexes
// the variants by name so that a testbed of many variants is checked in
// linear time.
func (d *decoder) variantSeen(name string) *Variant {
	if d.variantByName == nil {
		d.variantByName = map[string]*Variant{}
	}
	return d.variantByName[name]
}

// workloadSeen is variantSeen for workloads: the range where the workload
// named name was declared, or nil.
func (d *decoder) workloadSeen(name string) *hcl.Range {
	if w := d.workloadByName[name]; w != nil {
		return w.DefRange.Ptr()
	}
	return nil
}

// validateLimits refuses more cells than MaxCells (addVariant and
// addWorkload keep to MaxVariants and MaxWorkloads).
func validateLimits(tb *Testbed, add addFunc) {
	repeat := max(tb.Sweep.Repeat, 1)
	if cells := len(tb.Variants) * len(tb.Workloads) * repeat; cells > MaxCells {
		rng := tb.DefRange
		if tb.Sweep.DefRange.Filename != "" {
			rng = tb.Sweep.DefRange
		}
		add(hcl.DiagError, rng, "Too many cells",
			"%d variants x %d workloads x repeat %d make %d cells; a sweep has at most %d", len(tb.Variants), len(tb.Workloads), repeat, cells, MaxCells)
	}
}
