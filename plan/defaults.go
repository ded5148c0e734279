package plan

import (
	"time"

	"github.com/hashicorp/hcl/v2"
)

// Defaults of the model (plan/LANGUAGE.md, "Blocks and defaults").
const (
	DefaultParallelism     = 32
	DefaultConnectTimeout  = 10 * time.Second
	DefaultRepeat          = 1
	DefaultOnFailure       = "continue"
	DefaultRunsDir         = "runs"
	DefaultAgentsPerClient = 1
	DefaultManager         = ManagerSystemd
	DefaultDiskWeight      = 100.0
	DefaultVerify          = "listing"
	DefaultPrefillConc     = 16
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

// Metrics is the testbed's metrics block: where a sweep streams its
// per-second figures (docs/metrics.md); the command line's --remote-write,
// --influx and --metrics-listen add to it.
type Metrics struct {
	RemoteWrite []string // Prometheus remote write 1.0 URLs
	Influx      []string // InfluxDB line-protocol write URLs
	Listen      string   // address of an OpenMetrics /metrics page ("": none)
	Queue       int      // batches each output's queue holds (0: the default)
	DefRange    hcl.Range
}

// MaxMetricsQueue bounds the metrics block's queue (batches, one a second).
const MaxMetricsQueue = 3600

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
