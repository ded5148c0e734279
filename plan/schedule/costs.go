package schedule

import (
	"fmt"
	"net/netip"
	"time"

	"benchbed/plan"
)

// Costs is what each kind of step takes in a cell, by the cell's place:
// learnt from the journals of earlier runs of the testbed (Learn), or
// measured defaults for its service manager and host kind (DefaultCosts).
// The estimate adds them up with the warm-ups' and runs' configured time.
type Costs struct {
	Source    string                 // where the figures come from, printed with the estimate
	First     map[Kind]time.Duration // a kind in a sweep's first cell (every conf pushed, every server restarted)
	Changed   map[Kind]time.Duration // a kind in a later cell that changes something
	Unchanged map[Kind]time.Duration // a kind in a later cell with nothing to change
	Lead      time.Duration          // a warm-up's or run's time beyond its configured duration (the agents' start)
	Wide      map[Kind]time.Duration // the run-wide steps before and after the cells by kind, prefill excepted
}

// cellCost is kind's time in a cell: first, or a later cell whose steps of
// that kind all have nothing to change (unchanged) or not.
func (c *Costs) cellCost(kind Kind, first, unchanged bool) time.Duration {
	switch {
	case first:
		return c.First[kind]
	case unchanged:
		return c.Unchanged[kind]
	}
	return c.Changed[kind]
}

// labPrefix holds the addresses of the labs on this machine (testbeds/lab,
// testbeds/distro): hosts in network namespaces, one SSH hop away.
var labPrefix = netip.MustParsePrefix("198.18.0.0/15")

// HostKind says what kind of hosts tb has: "netns lab" when every host is
// in a lab on this machine, else "remote".
func HostKind(tb *plan.Testbed) string {
	for _, h := range tb.Hosts {
		a, err := netip.ParseAddr(h.Address)
		if err != nil || !labPrefix.Contains(a) {
			return "remote"
		}
	}
	return "netns lab"
}

// managers lists the service managers of tb's services, in order, once each.
func managers(tb *plan.Testbed) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range tb.Services {
		if !seen[s.Manager] {
			seen[s.Manager] = true
			out = append(out, s.Manager)
		}
	}
	return out
}

// DefaultCosts are the step times measured with bench/sweep/run on the
// netns lab (manager "direct", telemetry on, the shared 2-core machine at
// load average 4-7; the medians of docs/benchmarks.md's "How fast" runs, the
// agents and telemetry started ahead of their steps; the rings' files made
// once in the render step, 2026-12-03: ring ports 0.1 s, render 1.5-1.9 s), for a testbed
// without journaled runs. They are the only measured ones: for other
// managers and for remote hosts Source says that they are the lab's, not
// theirs.
func DefaultCosts(tb *plan.Testbed) *Costs {
	s := func(x float64) time.Duration { return time.Duration(x * float64(time.Second)) }
	c := &Costs{
		First: map[Kind]time.Duration{StepRecord: s(0.1), StepRingPorts: s(0.1), StepPushConf: s(0.7),
			StepRestart: s(5.4), StepReload: s(1.7), StepHealth: s(3.6), StepServices: s(3.0), StepTelemetryStart: s(0.1),
			StepDropCaches: s(0.5), StepTelemetry: s(0.3)},
		Changed: map[Kind]time.Duration{StepRecord: s(0.1), StepRingPorts: s(0.1), StepPushConf: s(0.5),
			StepRestart: s(4.2), StepReload: s(11.5), StepHealth: s(1.0), StepServices: s(2.0), StepTelemetryStart: s(0.1),
			StepDropCaches: s(0.5), StepTelemetry: s(0.3)},
		Unchanged: map[Kind]time.Duration{StepRecord: s(0.1), StepPushConf: s(0.1), StepReload: s(0.5), StepHealth: s(0.5),
			StepServices: s(0.5)},
		Lead: s(0.35),
		Wide: map[Kind]time.Duration{StepPreflight: s(1.0), StepPreconditions: s(0.5), StepLock: s(0.5),
			StepEnvironment: s(0.8), StepRender: s(1.7), StepBackup: s(0.4), StepUndoBackup: s(7.0), StepUndoLock: s(0.5)},
	}
	if !switchesPorts(tb) { // no ring files to make before the cells
		c.Wide[StepRender] = s(0.1)
	}
	kind, mgrs := HostKind(tb), managers(tb)
	c.Source = "measured defaults (no journaled run of this testbed): manager direct on the netns lab, from docs/benchmarks.md's bench/sweep figures"
	if kind != "netns lab" || len(mgrs) != 1 || mgrs[0] != plan.ManagerDirect {
		c.Source += fmt.Sprintf("; this testbed's hosts are %s with manager %v, whose step times are not measured: the lab's are used", kind, mgrs)
	}
	return c
}

// switchesPorts reports whether a variant of tb gives a ring one port per
// disk: the render step then makes the rings' files for it.
func switchesPorts(tb *plan.Testbed) bool {
	for _, v := range tb.Variants {
		for _, r := range tb.Rings {
			if v.PortPerDisk(r.Name) {
				return true
			}
		}
	}
	return false
}
