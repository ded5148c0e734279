package decode

import (
	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/scenario"
)

// decodeFill decodes a workload's fill block, evaluated in ctx.
func (d *decoder) decodeFill(w *plan.Workload, b *hcl.Block, ctx *hcl.EvalContext) *plan.Fill {
	f := &plan.Fill{Buckets: plan.DefaultFillBuckets, DefRange: b.DefRange}
	c := d.Attrs(b.Body, []string{"container_objects!", "buckets"})
	ok := false
	if a := c.Attributes["container_objects"]; a != nil {
		var n int
		n, ok = d.Integer(a, ctx, 1, scenario.MaxFillObjects)
		f.ContainerObjects = int64(n)
	}
	if a := c.Attributes["buckets"]; a != nil {
		var good bool
		f.Buckets, good = d.Integer(a, ctx, 1, scenario.MaxFillBuckets)
		if good && ok && int64(f.Buckets) > f.ContainerObjects {
			d.Errorf(a.Expr.Range().Ptr(), "Invalid value for buckets", "workload %q: %d buckets of %d objects: a bucket would hold no object",
				w.Name, f.Buckets, f.ContainerObjects)
		}
	}
	return f
}

// checkFill refuses a fill workload whose scenario does anything but
// create, or that also gives operation_count (the fill target is the
// operation count).
func (d *decoder) checkFill(w *plan.Workload, c *hcl.BodyContent) {
	if w.Fill == nil {
		return
	}
	rng := w.Fill.DefRange
	if a := c.Attributes["operation_count"]; a != nil {
		d.Errorf(a.NameRange.Ptr(), "Conflicting run bounds", "workload %q: a fill block runs until the containers hold container_objects; give no operation_count", w.Name)
	}
	if w.ScenarioJSON == nil {
		return // its scenario's problem is reported
	}
	if s, err := scenario.Parse(w.ScenarioJSON); err == nil && !scenario.CreateOnly(s) {
		d.Errorf(&rng, "Invalid fill workload", "workload %q: a fill block needs a create-only scenario (crud_profile [1, 0, 0, 0] in every size class with initial files)", w.Name)
	}
}
