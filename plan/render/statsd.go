package render

import (
	"strconv"

	"benchbed/plan"
	"benchbed/templates"
)

// statsdLayer points a Swift server conf of host h at the telemetry
// agent's statsd receiver (telemetry { statsd = true }), its metrics
// prefixed with h's name.
func statsdLayer(tb *plan.Testbed, h *plan.Host) (templates.Layer, bool) {
	rc := tb.StatsdReceiver()
	if rc == nil {
		return templates.Layer{}, false
	}
	src := rangeSource(tb.Telemetry.DefRange)
	l := templates.Layer{Name: "telemetry"}
	l.Add("DEFAULT", "log_statsd_host", templates.Value{Value: rc.Address, Source: src})
	l.Add("DEFAULT", "log_statsd_port", templates.Value{Value: strconv.Itoa(plan.StatsdPort), Source: src})
	l.Add("DEFAULT", "log_statsd_metric_prefix", templates.Value{Value: h.Name, Source: src})
	return l, true
}
