package telemetry

import (
	"encoding/json"
	"fmt"
	"time"
)

// Config is the agent's job, the first JSON line on its stdin.
type Config struct {
	Host       string        `json:"host"`        // the testbed's name of the host, put in every sample
	IntervalMs int           `json:"interval_ms"` // sampling interval (default 1000)
	Disks      []DiskSpec    `json:"disks,omitempty"`
	Services   []ServiceSpec `json:"services,omitempty"`
	StatsdAddr string        `json:"statsd_addr,omitempty"` // when set, receive statsd timers on this UDP address
}

// DiskSpec is one testbed disk of the host: its name in the testbed and
// its path (a block device, or a directory on the disk).
type DiskSpec struct {
	Name string `json:"name"`
	Path string `json:"path"`
}

// Interval is the sampling interval, 1 s unless set.
func (c Config) Interval() time.Duration {
	if c.IntervalMs <= 0 {
		return time.Second
	}
	return time.Duration(c.IntervalMs) * time.Millisecond
}

// ParseConfig reads the agent's job line.
func ParseConfig(line []byte) (Config, error) {
	var c Config
	if err := json.Unmarshal(line, &c); err != nil {
		return c, fmt.Errorf("telemetry agent: the config on stdin: %w", err)
	}
	if c.IntervalMs < 0 || (c.IntervalMs > 0 && c.IntervalMs < 100) {
		return c, fmt.Errorf("telemetry agent: interval_ms %d: give 100 or more", c.IntervalMs)
	}
	for _, d := range c.Disks {
		if d.Name == "" || d.Path == "" {
			return c, fmt.Errorf("telemetry agent: a disk needs a name and a path (%+v)", d)
		}
	}
	for _, s := range c.Services {
		if s.Name == "" || len(s.Match) == 0 {
			return c, fmt.Errorf("telemetry agent: service %q needs a name and program names to match", s.Name)
		}
	}
	return c, nil
}

// Control is a line the orchestrator sends the agent after the config:
// {"phase":"run"} switches the phase of the following samples.
type Control struct {
	Phase string `json:"phase"`
}

// Ready is the agent's first output line: what it resolved.
type Ready struct {
	Type     string            `json:"type"` // "ready"
	Host     string            `json:"host"`
	Disks    map[string]string `json:"disks"`            // testbed disk -> block device
	Services map[string]int    `json:"services"`         // service -> processes found
	Statsd   string            `json:"statsd,omitempty"` // the statsd receiver's address
	Warnings []string          `json:"warnings,omitempty"`
}

// Failure is the agent's last line when it fails.
type Failure struct {
	Type  string `json:"type"` // "error"
	Error string `json:"error"`
}
