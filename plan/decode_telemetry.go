package plan

import (
	"time"

	"github.com/hashicorp/hcl/v2"
)

// Telemetry is the testbed's telemetry block: host telemetry in every
// cell, sampled by an agent on every host.
type Telemetry struct {
	Enabled  bool          // default true
	Interval time.Duration // between samples (default 1 s)
	// DropCaches: before each cell's measured run, the object hosts'
	// page caches are dropped (sync; echo 3 > /proc/sys/vm/drop_caches).
	DropCaches bool
	// Statsd: the Swift confs send statsd timers (log_statsd_host/port)
	// to a receiver in the telemetry agent of the first client host.
	Statsd   bool
	DefRange hcl.Range
}

// Bounds and defaults of the telemetry block.
const (
	DefaultTelemetryInterval = time.Second
	MinTelemetryInterval     = 100 * time.Millisecond
	MaxTelemetryInterval     = time.Minute
	// StatsdPort is the UDP port of the statsd receiver.
	StatsdPort = 8125
)

// StatsdReceiver is the host whose telemetry agent receives the services'
// statsd timers (the first client host), nil when statsd is off.
func (tb *Testbed) StatsdReceiver() *Host {
	if !tb.Telemetry.Enabled || !tb.Telemetry.Statsd {
		return nil
	}
	for _, h := range tb.Hosts {
		if h.HasRole(RoleClient) {
			return h
		}
	}
	return nil
}

// decodeTelemetry decodes the telemetry block (defaults without one).
func (d *decoder) decodeTelemetry(b *hcl.Block) {
	t := &d.tb.Telemetry
	*t = Telemetry{Enabled: true, Interval: DefaultTelemetryInterval}
	if b == nil {
		return
	}
	t.DefRange = b.DefRange
	c := d.attrs(b.Body, []string{"enabled", "interval", "drop_caches", "statsd"})
	for _, a := range sortedAttrs(c.Attributes) {
		switch a.Name {
		case "enabled":
			t.Enabled, _ = d.boolean(a, d.ctx)
		case "interval":
			v, ok := d.duration(a, d.ctx)
			if ok && (v < MinTelemetryInterval || v > MaxTelemetryInterval) {
				d.errorf(a.Expr.Range().Ptr(), "Invalid value for interval",
					"the telemetry interval must be between %v and %v; got %v", MinTelemetryInterval, MaxTelemetryInterval, v)
				continue
			}
			if ok {
				t.Interval = v
			}
		case "drop_caches":
			t.DropCaches, _ = d.boolean(a, d.ctx)
		case "statsd":
			t.Statsd, _ = d.boolean(a, d.ctx)
		}
	}
}

// checkTelemetry refuses statsd without a client host to receive it (after
// the hosts are decoded).
func (d *decoder) checkTelemetry() {
	t := d.tb.Telemetry
	if t.Enabled && t.Statsd && d.tb.StatsdReceiver() == nil {
		d.errorf(t.DefRange.Ptr(), "No host for the statsd receiver",
			"statsd = true sends the services' timers to the telemetry agent of the first host with the client role; %s has none", d.tb.File)
	}
}
