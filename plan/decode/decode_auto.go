package decode

import (
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"benchbed/plan"
)

// autoAttrs are a workload's attributes of runs that stop by themselves
// (duration = "auto" and warmup, repeat with theirs).
var autoAttrs = []string{"warmup", "max_warmup", "precision", "max_duration", "repeat", "max_repeat", "min_effect"}

// isAuto reports whether a's value is the string "auto".
func (d *decoder) isAuto(a *hcl.Attribute, ctx *hcl.EvalContext) bool {
	v, diags := a.Expr.Value(ctx)
	return !diags.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() && v.AsString() == "auto"
}

// decodeRunDuration decodes a workload's duration: a duration or "auto".
func (d *decoder) decodeRunDuration(w *plan.Workload, a *hcl.Attribute, ctx *hcl.EvalContext) {
	if d.isAuto(a, ctx) {
		w.AutoDuration = &plan.AutoDuration{Precision: plan.DefaultPrecision, Max: plan.DefaultMaxDuration}
		return
	}
	w.Duration, _ = d.Duration(a, ctx)
}

// decodeAuto decodes the attributes of runs that stop by themselves and
// checks that each limit goes with its "auto".
func (d *decoder) decodeAuto(w *plan.Workload, c *hcl.BodyContent, ctx *hcl.EvalContext) {
	at := c.Attributes
	var search, fill *hcl.Block
	for _, blk := range c.Blocks {
		switch blk.Type {
		case "search":
			search = blk
		case "fill":
			fill = blk
		}
	}
	if search != nil && fill != nil {
		d.Errorf(search.DefRange.Ptr(), "Conflicting search", "workload %q: a fill experiment has no rate to search", w.Name)
	}
	if a := at["warmup"]; a != nil {
		w.Warmup = &plan.Warmup{Max: plan.DefaultMaxWarmup}
		if w.Warmup.Auto = d.isAuto(a, ctx); !w.Warmup.Auto {
			w.Warmup.Duration, _ = d.Duration(a, ctx)
		}
	}
	if a := at["repeat"]; a != nil {
		if !d.isAuto(a, ctx) {
			d.Errorf(a.Expr.Range().Ptr(), "Invalid value for repeat",
				"workload %q: a workload's repeat is \"auto\" (with max_repeat); a fixed count is the sweep's repeat", w.Name)
		} else {
			w.AutoRepeat = &plan.AutoRepeat{Max: plan.DefaultMaxRepeat, Effect: plan.DefaultMinEffect}
		}
	}
	d.autoLimit(w, at["precision"], w.AutoDuration != nil, "duration = \"auto\"", func(a *hcl.Attribute) {
		if x, ok := d.rate(a, ctx); ok && x <= 0 {
			d.Errorf(a.Expr.Range().Ptr(), "Invalid value for precision", "workload %q: precision must be above 0, as \"2%%\"", w.Name)
		} else if ok {
			w.AutoDuration.Precision = x
		}
	})
	d.autoLimit(w, at["max_duration"], w.AutoDuration != nil, "duration = \"auto\"", func(a *hcl.Attribute) {
		w.AutoDuration.Max = d.positiveDuration(w, a, ctx)
	})
	d.autoLimit(w, at["max_warmup"], w.Warmup != nil && w.Warmup.Auto, "warmup = \"auto\"", func(a *hcl.Attribute) {
		w.Warmup.Max = d.positiveDuration(w, a, ctx)
	})
	d.autoLimit(w, at["max_repeat"], w.AutoRepeat != nil, "repeat = \"auto\"", func(a *hcl.Attribute) {
		w.AutoRepeat.Max, _ = d.Integer(a, ctx, 2, 1000)
	})
	d.autoLimit(w, at["min_effect"], w.AutoRepeat != nil, "repeat = \"auto\"", func(a *hcl.Attribute) {
		if x, ok := d.rate(a, ctx); ok && x <= 0 {
			d.Errorf(a.Expr.Range().Ptr(), "Invalid value for min_effect", "workload %q: min_effect must be above 0, as \"5%%\"", w.Name)
		} else if ok {
			w.AutoRepeat.Effect = x
		}
	})
}

// autoLimit decodes a limit attribute with decode when its "auto" is
// given (on says so), else reports it misplaced.
func (d *decoder) autoLimit(w *plan.Workload, a *hcl.Attribute, on bool, needs string, decode func(*hcl.Attribute)) {
	switch {
	case a == nil:
	case !on:
		d.Errorf(a.NameRange.Ptr(), "Misplaced "+a.Name, "workload %q: %s goes with %s", w.Name, a.Name, needs)
	default:
		decode(a)
	}
}

// positiveDuration decodes a duration that must be above 0.
func (d *decoder) positiveDuration(w *plan.Workload, a *hcl.Attribute, ctx *hcl.EvalContext) time.Duration {
	v, ok := d.Duration(a, ctx)
	if ok && v <= 0 {
		d.Errorf(a.Expr.Range().Ptr(), "Invalid value for "+a.Name, "workload %q: %s must be above 0", w.Name, a.Name)
	}
	return v
}

// checkAutoCommand refuses the search, thresholds and "auto" runs on a
// command workload, whose tool decides its own length and figures.
func (d *decoder) checkAutoCommand(w *plan.Workload, c *hcl.BodyContent) {
	for _, blk := range c.Blocks {
		if blk.Type == "search" || blk.Type == "threshold" {
			d.Errorf(blk.DefRange.Ptr(), "Misplaced "+blk.Type+" block", "workload %q runs a command: a %s block needs a scenario", w.Name, blk.Type)
		}
	}
	for _, n := range autoAttrs {
		if a := c.Attributes[n]; a != nil {
			d.Errorf(a.NameRange.Ptr(), "Misplaced "+n, "workload %q runs a command: %s needs a scenario", w.Name, n)
		}
	}
	if w.AutoDuration != nil {
		d.Errorf(c.Attributes["duration"].Expr.Range().Ptr(), "Invalid value for duration", "workload %q runs a command: duration \"auto\" needs a scenario", w.Name)
	}
}
