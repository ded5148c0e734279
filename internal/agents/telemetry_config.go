package agents

import (
	"fmt"
	"path"
	"path/filepath"

	"benchbed/internal/cluster"
	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/results/telemetry"
)

// LoadAgentService is the telemetry's name of the load agents (`benchbed
// agent`) on a client host: their CPU says whether the clients kept up.
const LoadAgentService = "load-agent"

// TelemetryConfigs is every host's agent config for a cell rendered as r:
// the host's disks (a device, or the directory under the devices root),
// the daemons the sweep runs on it, and on a client host the load agents.
func TelemetryConfigs(tb *plan.Testbed, r *render.Rendering) []telemetry.Config {
	var out []telemetry.Config
	for _, h := range tb.Hosts {
		c := telemetry.Config{Host: h.Name, IntervalMs: int(tb.Telemetry.Interval.Milliseconds())}
		root := cluster.DevicesRootOf(r, h)
		for _, g := range h.Disks {
			for _, d := range g.Disks {
				p := d.Device
				if p == "" {
					p = path.Join(root, d.Name)
				}
				c.Disks = append(c.Disks, telemetry.DiskSpec{Name: d.Name, Path: p})
			}
		}
		if rc := tb.StatsdReceiver(); rc == h {
			c.StatsdAddr = fmt.Sprintf(":%d", plan.StatsdPort)
		}
		ds, _ := cluster.HostDaemons(tb, r, h)
		for _, d := range ds {
			c.Services = append(c.Services, telemetry.ServiceSpec{Name: d.Name, Match: []string{daemonProgram(d)}})
		}
		if h.HasRole(plan.RoleClient) {
			// "<bin> agent": the program is content-addressed, its subcommand is not.
			c.Services = append(c.Services, telemetry.ServiceSpec{Name: LoadAgentService, Match: []string{"agent"}})
		}
		out = append(out, c)
	}
	return out
}

// daemonProgram is the program name of d's processes: the command of a
// direct daemon, swift-<name> for Swift's servers, memcached itself.
func daemonProgram(d cluster.Daemon) string {
	switch {
	case len(d.Argv) > 0:
		return filepath.Base(d.Argv[0])
	case d.Name == "memcached":
		return "memcached"
	}
	return "swift-" + d.Name
}
