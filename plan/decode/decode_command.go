package decode

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"benchbed/plan"
	"benchbed/plan/outparse"
)

// commandAttrs are the attributes only a command workload has.
var commandAttrs = []string{"command", "parser", "pattern", "json", "units", "before", "before_on", "metric", "timeout"}

// scenarioOnly are the attributes only a scenario (Swift) workload has.
var scenarioOnly = []string{"scenario", "scenario_set", "duration", "operation_count", "rate", "agents_per_client",
	"storage_url", "token", "max_error_rate"}

// decodeCommand decodes a command workload's attributes (c has a command)
// and builds its parser, reporting what is missing or does not belong.
func (d *decoder) decodeCommand(w *plan.Workload, b *hcl.Block, c *hcl.BodyContent, ctx *hcl.EvalContext) {
	cl := &plan.CommandLoad{Metric: outparse.Throughput, Timeout: plan.DefaultCommandTimeout, DefRange: b.DefRange}
	for _, n := range scenarioOnly {
		if a := c.Attributes[n]; a != nil {
			d.Errorf(a.NameRange.Ptr(), "Not for a command workload", "workload %q runs a command: %s belongs to scenario workloads", w.Name, n)
		}
	}
	for _, blk := range c.Blocks {
		d.Errorf(blk.DefRange.Ptr(), "Not for a command workload", "workload %q runs a command: a %s block belongs to scenario workloads", w.Name, blk.Type)
	}
	for _, n := range commandAttrs {
		a := c.Attributes[n]
		if a == nil {
			continue
		}
		switch n {
		case "command":
			cl.Command, _ = d.Str(a, ctx)
		case "parser":
			cl.ParserName, _ = d.Str(a, ctx)
		case "pattern":
			cl.Pattern, _ = d.Str(a, ctx)
		case "json":
			cl.JSON = d.stringMap(a, ctx)
		case "units":
			cl.Units = d.stringMap(a, ctx)
		case "before":
			cl.Before, _ = d.Strings(a, ctx)
		case "before_on":
			cl.BeforeOn, _ = d.Strings(a, ctx)
			d.checkHosts(a, cl.BeforeOn)
		case "metric":
			cl.Metric, _ = d.Str(a, ctx)
		case "timeout":
			cl.Timeout, _ = d.Duration(a, ctx)
		}
	}
	d.commandParser(w, cl, c)
	if w.Users == 0 {
		w.Users = 1
	}
	w.Command = cl
	d.commandMetric(w, c)
}

// commandParser builds cl's parser, its errors at the parser's attribute.
func (d *decoder) commandParser(w *plan.Workload, cl *plan.CommandLoad, c *hcl.BodyContent) {
	a := c.Attributes["parser"]
	if a == nil {
		d.Errorf(cl.DefRange.Ptr(), "Missing parser", "workload %q: parser is one of %s, %q (pattern, units) or %q (json, units)",
			w.Name, strings.Join(outparse.BuiltinNames(), ", "), plan.ParserRegexp, plan.ParserJSON)
		return
	}
	custom := cl.ParserName == plan.ParserRegexp || cl.ParserName == plan.ParserJSON
	for _, n := range []string{"pattern", "json", "units"} {
		if x := c.Attributes[n]; x != nil && !custom {
			d.Errorf(x.NameRange.Ptr(), "Not for a built-in parser", "workload %q: %s goes with parser = %q or %q", w.Name, n, plan.ParserRegexp, plan.ParserJSON)
		}
	}
	var err error
	switch cl.ParserName {
	case plan.ParserRegexp:
		cl.Parser, err = outparse.Regexp(cl.Pattern, cl.Units)
	case plan.ParserJSON:
		cl.Parser, err = outparse.JSONPath(cl.JSON, cl.Units)
	default:
		cl.Parser, err = outparse.Builtin(cl.ParserName)
	}
	if err != nil {
		d.Errorf(a.Expr.Range().Ptr(), "Invalid parser", "workload %q: %v", w.Name, err)
	}
}

// stringMap evaluates an object of strings.
func (d *decoder) stringMap(a *hcl.Attribute, ctx *hcl.EvalContext) map[string]string {
	v, _, ok := d.Value(a, ctx, cty.Map(cty.String))
	if !ok || v.IsNull() {
		return nil
	}
	out := map[string]string{}
	for k, e := range v.AsValueMap() {
		if e.IsNull() {
			d.Errorf(a.Expr.Range().Ptr(), "Invalid value for "+a.Name, "%s.%s must not be null", a.Name, k)
			continue
		}
		out[k] = e.AsString()
	}
	return out
}

// checkHosts reports names that are no host of the testbed.
func (d *decoder) checkHosts(a *hcl.Attribute, hosts []string) {
	d.CheckUnique(a, hosts, "host")
	for _, h := range hosts {
		if d.tb.Host(h) == nil {
			known := make([]string, 0, len(d.tb.Hosts))
			for _, x := range d.tb.Hosts {
				known = append(known, x.Name)
			}
			d.Errorf(a.Expr.Range().Ptr(), "Unknown host", "%s: %q is no host of this testbed (%s)", a.Name, h, strings.Join(known, ", "))
		}
	}
}

// commandMetric checks that a workload's headline metric is one its
// custom parser names (a built-in parser always has throughput).
func (d *decoder) commandMetric(w *plan.Workload, c *hcl.BodyContent) {
	cl := w.Command
	if cl == nil || cl.Parser == nil || (cl.ParserName != plan.ParserRegexp && cl.ParserName != plan.ParserJSON) {
		return
	}
	if _, ok := cl.Units[cl.Metric]; ok {
		return
	}
	rng := cl.DefRange.Ptr()
	if a := c.Attributes["metric"]; a != nil {
		rng = a.Expr.Range().Ptr()
	}
	d.Errorf(rng, "Unknown metric", "workload %q: metric %q (the figure its table shows) is none of the parser's (%s)",
		w.Name, cl.Metric, strings.Join(slices.Sorted(maps.Keys(cl.Units)), ", "))
}

// commandHint is the detail of a workload with neither scenario nor command.
func commandHint(name string) string {
	return fmt.Sprintf("workload %q needs a scenario (a Swift load) or a command (a tool run on the clients, with a parser)", name)
}
