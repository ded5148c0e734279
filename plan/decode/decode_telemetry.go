package decode

import (
	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/lang"
)

// decodeTelemetry decodes the telemetry block (defaults without one).
func (d *decoder) decodeTelemetry(b *hcl.Block) {
	t := &d.tb.Telemetry
	*t = plan.Telemetry{Enabled: true, Interval: plan.DefaultTelemetryInterval}
	if b == nil {
		return
	}
	t.DefRange = b.DefRange
	c := d.Attrs(b.Body, []string{"enabled", "interval", "drop_caches", "statsd"})
	for _, a := range lang.SortedAttrs(c.Attributes) {
		switch a.Name {
		case "enabled":
			t.Enabled, _ = d.Bool(a, d.Ctx)
		case "interval":
			v, ok := d.Duration(a, d.Ctx)
			if ok && (v < plan.MinTelemetryInterval || v > plan.MaxTelemetryInterval) {
				d.Errorf(a.Expr.Range().Ptr(), "Invalid value for interval",
					"the telemetry interval must be between %v and %v; got %v", plan.MinTelemetryInterval, plan.MaxTelemetryInterval, v)
				continue
			}
			if ok {
				t.Interval = v
			}
		case "drop_caches":
			t.DropCaches, _ = d.Bool(a, d.Ctx)
		case "statsd":
			t.Statsd, _ = d.Bool(a, d.Ctx)
		}
	}
}

// checkTelemetry refuses statsd without a client host to receive it (after
// the hosts are decoded).
func (d *decoder) checkTelemetry() {
	t := d.tb.Telemetry
	if t.Enabled && t.Statsd && d.tb.StatsdReceiver() == nil {
		d.Errorf(t.DefRange.Ptr(), "No host for the statsd receiver",
			"statsd = true sends the services' timers to the telemetry agent of the first host with the client role; %s has none", d.tb.File)
	}
}
