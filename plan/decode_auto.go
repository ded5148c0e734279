package plan

import (
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"benchbed/plan/slo"
)

// autoAttrs are a workload's attributes of runs that stop by themselves
// (duration = "auto" and warmup, repeat with theirs).
var autoAttrs = []string{"warmup", "max_warmup", "precision", "max_duration", "repeat", "max_repeat", "min_effect", "power"}

// Defaults of the runs that stop by themselves.
const (
	DefaultPrecision   = 0.02             // duration = "auto": the confidence interval of req/s within 2 %
	DefaultMaxDuration = time.Hour        // duration = "auto": the longest run
	DefaultMaxWarmup   = 2 * time.Minute  // warmup = "auto": the longest warm-up
	DefaultMaxRepeat   = 10               // repeat = "auto": the most repeats
	DefaultMinEffect   = 0.05             // repeat = "auto": a change under 5 % is no difference
	DefaultProbe       = 20 * time.Second // a search's probe length
	DefaultResolution  = 0.05             // a search stops when passed and failed rates are 5 % apart
)

// AutoDuration is a workload's duration = "auto": its run ends once the
// batch-means 95 % confidence interval of its per-second req/s is within
// Precision of the mean (results.Precision), or at Max.
type AutoDuration struct {
	Precision float64
	Max       time.Duration
}

// Warmup is a workload's own warm-up (instead of the sweep's): a fixed
// Duration, or with Auto until req/s and p99 per second are steady
// (results.Steady), at most Max.
type Warmup struct {
	Auto     bool
	Duration time.Duration
	Max      time.Duration
}

// AutoRepeat is a workload's repeat = "auto": repeats are added until
// compare's test separates the variants or, not separating them, had
// Power to find a change of Effect or more (compare.NextRepeat), at most
// Max (Testbed.Repeats).
type AutoRepeat struct {
	Max    int
	Effect float64 // a share: 0.05 is 5 %
	Power  float64 // a share: 0.8
}

// isAuto reports whether a's value is the string "auto".
func (d *decoder) isAuto(a *hcl.Attribute, ctx *hcl.EvalContext) bool {
	v, diags := a.Expr.Value(ctx)
	return !diags.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() && v.AsString() == "auto"
}

// decodeRunDuration decodes a workload's duration: a duration or "auto".
func (d *decoder) decodeRunDuration(w *Workload, a *hcl.Attribute, ctx *hcl.EvalContext) {
	if d.isAuto(a, ctx) {
		w.AutoDuration = &AutoDuration{Precision: DefaultPrecision, Max: DefaultMaxDuration}
		return
	}
	w.Duration, _ = d.duration(a, ctx)
}

// decodeAuto decodes the attributes of runs that stop by themselves and
// checks that each limit goes with its "auto".
func (d *decoder) decodeAuto(w *Workload, c *hcl.BodyContent, ctx *hcl.EvalContext) {
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
		d.errorf(search.DefRange.Ptr(), "Conflicting search", "workload %q: a fill experiment has no rate to search", w.Name)
	}
	if a := at["warmup"]; a != nil {
		w.Warmup = &Warmup{Max: DefaultMaxWarmup}
		if w.Warmup.Auto = d.isAuto(a, ctx); !w.Warmup.Auto {
			w.Warmup.Duration, _ = d.duration(a, ctx)
		}
	}
	if a := at["repeat"]; a != nil {
		if !d.isAuto(a, ctx) {
			d.errorf(a.Expr.Range().Ptr(), "Invalid value for repeat",
				"workload %q: a workload's repeat is \"auto\" (with max_repeat); a fixed count is the sweep's repeat", w.Name)
		} else {
			w.AutoRepeat = &AutoRepeat{Max: DefaultMaxRepeat, Effect: DefaultMinEffect, Power: DefaultPower}
		}
	}
	d.autoLimit(w, at["precision"], w.AutoDuration != nil, "duration = \"auto\"", func(a *hcl.Attribute) {
		if x, ok := d.rate(a, ctx); ok && x <= 0 {
			d.errorf(a.Expr.Range().Ptr(), "Invalid value for precision", "workload %q: precision must be above 0, as \"2%%\"", w.Name)
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
		w.AutoRepeat.Max, _ = d.integer(a, ctx, 2, 1000)
	})
	d.autoLimit(w, at["min_effect"], w.AutoRepeat != nil, "repeat = \"auto\"", func(a *hcl.Attribute) {
		if x, ok := d.rate(a, ctx); ok && x <= 0 {
			d.errorf(a.Expr.Range().Ptr(), "Invalid value for min_effect", "workload %q: min_effect must be above 0, as \"5%%\"", w.Name)
		} else if ok {
			w.AutoRepeat.Effect = x
		}
	})
	d.autoLimit(w, at["power"], w.AutoRepeat != nil, "repeat = \"auto\"", func(a *hcl.Attribute) {
		if x, ok := d.rate(a, ctx); ok && (x <= 0 || x >= 1) {
			d.errorf(a.Expr.Range().Ptr(), "Invalid value for power", "workload %q: power must be above 0 and under 100%%, as \"80%%\"", w.Name)
		} else if ok {
			w.AutoRepeat.Power = x
		}
	})
}

// autoLimit decodes a limit attribute with decode when its "auto" is
// given (on says so), else reports it misplaced.
func (d *decoder) autoLimit(w *Workload, a *hcl.Attribute, on bool, needs string, decode func(*hcl.Attribute)) {
	switch {
	case a == nil:
	case !on:
		d.errorf(a.NameRange.Ptr(), "Misplaced "+a.Name, "workload %q: %s goes with %s", w.Name, a.Name, needs)
	default:
		decode(a)
	}
}

// positiveDuration decodes a duration that must be above 0.
func (d *decoder) positiveDuration(w *Workload, a *hcl.Attribute, ctx *hcl.EvalContext) time.Duration {
	v, ok := d.duration(a, ctx)
	if ok && v <= 0 {
		d.errorf(a.Expr.Range().Ptr(), "Invalid value for "+a.Name, "workload %q: %s must be above 0", w.Name, a.Name)
	}
	return v
}

// checkAutoCommand refuses the search, thresholds and "auto" runs on a
// command workload, whose tool decides its own length and figures.
func (d *decoder) checkAutoCommand(w *Workload, c *hcl.BodyContent) {
	for _, blk := range c.Blocks {
		if blk.Type == "search" || blk.Type == "threshold" {
			d.errorf(blk.DefRange.Ptr(), "Misplaced "+blk.Type+" block", "workload %q runs a command: a %s block needs a scenario", w.Name, blk.Type)
		}
	}
	for _, n := range autoAttrs {
		if a := c.Attributes[n]; a != nil {
			d.errorf(a.NameRange.Ptr(), "Misplaced "+n, "workload %q runs a command: %s needs a scenario", w.Name, n)
		}
	}
	if w.AutoDuration != nil {
		d.errorf(c.Attributes["duration"].Expr.Range().Ptr(), "Invalid value for duration", "workload %q runs a command: duration \"auto\" needs a scenario", w.Name)
	}
}

// AutoLines describes the workload's search, runs that stop by
// themselves and thresholds, one line each, for `benchbed plan`.
func (w *Workload) AutoLines() []string {
	var out []string
	if s := w.Search; s != nil {
		out = append(out, fmt.Sprintf("search: the highest rate from %g to %g req/s meeting %s, probes of %s, resolution %s, then a confirming run",
			s.From, s.To, s.SLO, shortDuration(s.Probe), slo.Percent(s.Resolution)))
	}
	if wu := w.Warmup; wu != nil && wu.Auto {
		out = append(out, "warmup auto: until req/s and p99 per second are steady, at most "+shortDuration(wu.Max))
	} else if wu != nil {
		out = append(out, "warmup "+shortDuration(wu.Duration))
	}
	if a := w.AutoDuration; a != nil {
		out = append(out, fmt.Sprintf("duration auto: until req/s is known within %s (95 %% confidence, batch means), at most %s",
			slo.Percent(a.Precision), shortDuration(a.Max)))
	}
	if r := w.AutoRepeat; r != nil {
		out = append(out, fmt.Sprintf("repeat auto: until compare's U test separates the variants (p <= %g) or, not separating them, had %s power to find a change of %s or more, at most %d repeats",
			RepeatAlpha, slo.Percent(r.Power), slo.Percent(r.Effect), max(r.Max, MinAutoRepeat)))
	}
	for _, t := range w.Thresholds {
		out = append(out, "threshold: fail if "+t.String()+" (and significant)")
	}
	return out
}

// shortDuration writes d as time.Duration does, without zero minutes or
// seconds at its end: "1h", "2m", "1m30s".
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}
