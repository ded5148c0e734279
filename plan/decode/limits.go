package decode

import (
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/lang"
)

// Limits on a testbed's matrix: far beyond any sweep one can run (a cell
// is a measured run of minutes), and small enough that validate and plan
// stay quick.
const (
	MaxVariants  = 4096  // variants, for_each points included
	MaxWorkloads = 4096  // workloads, for_each points included
	MaxCells     = 10000 // variants x workloads x sweep.repeat
	MaxHosts     = 4096  // hosts, for_each points included
	MaxServices  = 1024  // service blocks, Swift's and generic
)

// tooMany refuses more services than the limit, before the checks
// between blocks (which pair hosts with services) run (addHost keeps to
// MaxHosts).
func tooMany(tb *plan.Testbed) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if n := len(tb.Services) + len(tb.Generics); n > MaxServices {
		diags = append(diags, lang.Diagf(hcl.DiagError, tb.DefRange.Ptr(), "Too many services",
			"the testbed has %d services; at most %d", n, MaxServices))
	}
	return diags
}

// variantSeen returns the variant already named name, or nil; it indexes
// the variants by name so that a testbed of many variants is checked in
// linear time.
func (d *decoder) variantSeen(name string) *plan.Variant {
	if d.variantByName == nil {
		d.variantByName = map[string]*plan.Variant{}
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
func validateLimits(tb *plan.Testbed, add addFunc) {
	repeat := max(tb.Sweep.Repeat, 1)
	cells := 0
	for _, w := range tb.Workloads {
		_, hi := tb.Repeats(w) // repeat = "auto" at its max_repeat
		on := len(tb.Variants)
		if w.Variants != nil {
			on = len(w.Variants)
		}
		cells += on * hi
	}
	if cells > MaxCells {
		rng := tb.DefRange
		if tb.Sweep.DefRange.Filename != "" {
			rng = tb.Sweep.DefRange
		}
		add(hcl.DiagError, rng, "Too many cells",
			"%d variants x %d workloads x repeat %d (repeat = \"auto\" at its max_repeat; the workloads' variants counted) make %d cells; a sweep has at most %d", len(tb.Variants), len(tb.Workloads), repeat, cells, MaxCells)
	}
}

// layoutErrors memoises Testbed.Layout's error by the rings a variant
// gives one port per disk: the layout depends on nothing else, and
// thousands of variants share a few layouts.
type layoutErrors struct {
	tb   *plan.Testbed
	seen map[string]error
}

// of returns tb.Layout(v)'s error.
func (l *layoutErrors) of(v *plan.Variant) error {
	var perDisk []string
	for name, on := range v.RingPort {
		if on {
			perDisk = append(perDisk, name)
		}
	}
	sort.Strings(perDisk)
	key := strings.Join(perDisk, "\x00")
	if err, ok := l.seen[key]; ok {
		return err
	}
	if l.seen == nil {
		l.seen = map[string]error{}
	}
	_, err := l.tb.Layout(v)
	l.seen[key] = err
	return err
}
