package decode

import (
	"slices"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/slo"
)

// decodeSearch decodes a workload's search block.
func (d *decoder) decodeSearch(w *plan.Workload, b *hcl.Block, c *hcl.BodyContent, ctx *hcl.EvalContext) *plan.Search {
	s := &plan.Search{Probe: plan.DefaultProbe, Resolution: plan.DefaultResolution, DefRange: b.DefRange}
	bc := d.Attrs(b.Body, []string{"slo!", "from!", "to!", "probe", "resolution"})
	if a := bc.Attributes["slo"]; a != nil {
		s.SLO = d.slo(w, a, ctx)
	}
	from, to := bc.Attributes["from"], bc.Attributes["to"]
	if from != nil && to != nil {
		s.From, _ = d.Number(from, ctx)
		s.To, _ = d.Number(to, ctx)
		if !(s.From > 0 && s.To > s.From) {
			d.Errorf(from.Expr.Range().Ptr(), "Invalid search range", "workload %q: want 0 < from < to (requests/s), not from %g to %g", w.Name, s.From, s.To)
		}
	}
	if a := bc.Attributes["probe"]; a != nil {
		s.Probe = d.positiveDuration(w, a, ctx)
	}
	if a := bc.Attributes["resolution"]; a != nil {
		if x, ok := d.rate(a, ctx); ok && (x < 0.001 || x > 0.5) {
			d.Errorf(a.Expr.Range().Ptr(), "Invalid value for resolution", "workload %q: resolution between 0.1%% and 50%%, as \"5%%\"", w.Name)
		} else if ok {
			s.Resolution = x
		}
	}
	for _, n := range []string{"rate", "duration", "operation_count"} {
		if a := c.Attributes[n]; a != nil {
			d.Errorf(a.NameRange.Ptr(), "Conflicting "+n, "workload %q: a search block sets the rate and each probe's length (probe); give no %s", w.Name, n)
		}
	}
	return s
}

// slo decodes a search's slo: { first_byte_p99 = "50ms", max_error_rate = "0.1%" }.
func (d *decoder) slo(w *plan.Workload, a *hcl.Attribute, ctx *hcl.EvalContext) slo.SLO {
	m := d.stringMap(a, ctx)
	var out slo.SLO
	for _, k := range slicesSorted(m) {
		l, err := slo.NewLimit(k, m[k])
		if err != nil {
			d.Errorf(a.Expr.Range().Ptr(), "Invalid SLO", "workload %q: %v", w.Name, err)
			continue
		}
		out = append(out, l)
	}
	if m != nil && len(m) == 0 {
		d.Errorf(a.Expr.Range().Ptr(), "Invalid SLO", "workload %q: an slo needs a limit, as { first_byte_p99 = \"50ms\" }", w.Name)
	}
	return out
}

// decodeThreshold decodes a threshold block into w.Thresholds.
func (d *decoder) decodeThreshold(w *plan.Workload, b *hcl.Block, ctx *hcl.EvalContext) {
	bc := d.Attrs(b.Body, []string{"metric!", "op!", "change!"})
	var parts [3]string
	for i, n := range []string{"metric", "op", "change"} {
		a := bc.Attributes[n]
		if a == nil {
			return
		}
		var ok bool
		if parts[i], ok = d.Str(a, ctx); !ok {
			return
		}
	}
	t, err := slo.NewThreshold(parts[0], parts[1], parts[2])
	if err != nil {
		d.Errorf(b.DefRange.Ptr(), "Invalid threshold", "workload %q: %v", w.Name, err)
		return
	}
	w.Thresholds = append(w.Thresholds, plan.Threshold{Threshold: t, DefRange: b.DefRange})
}

// slicesSorted returns m's keys in order.
func slicesSorted(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
