package schedule

import (
	"fmt"
	"strings"

	"benchbed/plan"
)

// writeStep prints one step on one line, named as the sweep journals it,
// with a push-conf's changes and a ring switch's ports below it.
func writeStep(b *strings.Builder, tb *plan.Testbed, s Step) {
	fmt.Fprintf(b, "    %-15s %s\n", s.Kind, describe(tb, s))
	for _, c := range s.Changes {
		fmt.Fprintf(b, "    %-15s   [%s] %s: %s -> %s\n", "", c.Section, c.Key, orUnset(c.Old), orUnset(c.New))
	}
	for _, c := range s.Ports {
		fmt.Fprintf(b, "    %-15s   %s\n", "", c)
	}
}

// describe says what a step does in a few words.
func describe(tb *plan.Testbed, s Step) string {
	hosts := strings.Join(s.Hosts, ", ")
	if s.Unchanged && s.Kind == StepServices {
		return s.Service + " (generic): " + unchanged[s.Kind]
	}
	if s.Unchanged {
		return unchanged[s.Kind]
	}
	if d, ok := describeAuto(tb, s); ok {
		return d
	}
	switch s.Kind {
	case StepFaultProbe, StepFaultApply, StepFaultUndo, StepFaultCheck:
		return describeFault(s)
	case StepPushConf:
		what := "every setting (first cell)"
		if s.Changes != nil {
			what = fmt.Sprintf("%d changed", len(s.Changes))
		}
		return fmt.Sprintf("%s (%s) on %s: %s", s.Path, s.Service, hosts, what)
	case StepRingPorts:
		layout := "one port per host"
		if s.PortPerDisk {
			layout = "one port per disk"
		}
		return fmt.Sprintf("%s: %s, the ring copied to %s (no partitions move)", s.Ring, layout, hosts)
	case StepRestart:
		return fmt.Sprintf("%s on %s", s.Service, hosts)
	case StepReload:
		return fmt.Sprintf("%s on %s: in place (SIGUSR1, sockets kept) where its conf, swift.conf or a ring changed since it started", s.Service, hosts)
	case StepServices:
		return describeServices(tb, s, hosts)
	case StepPrefill:
		return fmt.Sprintf("%s: %d objects from %d agents on %s (resumable)", s.Workload,
			plan.InitialObjects(tb.Workload(s.Workload)), s.Agents, hosts)
	case StepPreconditions:
		return fmt.Sprintf("%s: its %d initial objects listed from %s, no PUT (no prefill block creates them); missing ones stop the sweep",
			s.Workload, plan.InitialObjects(tb.Workload(s.Workload)), hosts)
	case StepRun:
		if w := tb.Workload(s.Workload); w != nil && w.IsCommand() {
			copies := "copies"
			if s.Users == 1 {
				copies = "copy"
			}
			return fmt.Sprintf("%s: %d %s of its command on %s, output read by the %s parser", s.Workload, s.Users, copies, hosts, w.Command.ParserName)
		}
		fallthrough
	case StepWarmup:
		dur := "until the operation count"
		if w := tb.Workload(s.Workload); w != nil && w.Fill != nil && s.Kind == StepRun {
			dur = fmt.Sprintf("until each container holds %d objects", w.Fill.ContainerObjects)
		}
		if s.Duration > 0 {
			dur = "for " + short(s.Duration)
		}
		return fmt.Sprintf("%s: %d users %s, %d agents on %s", s.Workload, s.Users, dur, s.Agents, hosts)
	case StepTelemetryStart:
		return fmt.Sprintf("an agent on %s samples every %s, from the warm-up to the run's end", hosts, short(s.Duration))
	case StepUndoBackup:
		if !tb.Sweep.Restore {
			return "sweep.restore = false: the last cell's confs and rings stay; the copies of the originals are kept for `benchbed restore`"
		}
		return "the confs and rings found before the sweep put back on " + hosts + ", their servers restarted"
	}
	return fixed[s.Kind] + on(hosts)
}

// fixed describes the steps that have no parameters.
var fixed = map[Kind]string{
	StepPreflight:   "every host reachable over SSH with a known host key, the commands the sweep needs there",
	StepLock:        "the sweep lock taken",
	StepEnvironment: "kernel, CPU, memory, disks and Swift version recorded",
	StepRender:      "every variant's confs rendered here (nothing contacted)",
	StepBackup:      "copies of the files the sweep may change",
	StepRecord:      "the cell's confs and ring ports kept in the run directory",
	StepHealth:      "every server answers",
	StepDropCaches:  "page caches dropped (sync; echo 3 > /proc/sys/vm/drop_caches)",
	StepTelemetry:   "the agents stopped; the run's samples summarised in the cell (CPU, disks, services, bottleneck)",
	StepUndoLock:    "the sweep locks released",
}

// unchanged describes a step with nothing expected to change.
var unchanged = map[Kind]string{
	StepPreconditions: "nothing to check (no workload reads initial objects that no prefill block creates)",
	StepPrefill:       "nothing to create (no prefill block)",
	StepRingPorts:     "no ring layout changes (checked on the ring builder)",
	StepPushConf:      "no setting changes (the hosts' files compared)",
	StepRestart:       "nothing to restart (a server that is not running is started)",
	StepReload:        "nothing to reload (a server that is not running is started)",
	StepServices:      "no change (a service that is not running is started, then checked)",
}

func on(hosts string) string {
	if hosts == "" {
		return ""
	}
	return " on " + hosts
}

// describeServices says what a services step does to its generic service
// (its changed settings follow, as a push-conf's do).
func describeServices(tb *plan.Testbed, s Step, hosts string) string {
	what := "started, or restarted when its command line changed"
	if s.Path != "" {
		what = s.Path + " pushed where it differs; started, or restarted when its conf or command line changed"
	}
	if g := tb.Generic(s.Service); g != nil {
		if len(g.AfterStartIn(nil)) > 0 {
			what += "; after_start run"
		}
		what += "; health " + g.Health
	}
	return fmt.Sprintf("%s (generic) on %s: %s", s.Service, hosts, what)
}
