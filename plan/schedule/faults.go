package schedule

import (
	"fmt"
	"strings"
	"time"

	"benchbed/plan"
)

// The steps of a fault cell (a variant with fault blocks), as the sweep
// journals them.
const (
	// StepFaultProbe runs every fault's probe on its hosts after the
	// servers are healthy and before the warm-up: a host that cannot apply
	// a fault fails the cell before anything of the fault is changed.
	StepFaultProbe Kind = "fault-probe"
	// StepFaultApply applies one fault At into the measured run, its undo
	// journaled and pushed on the cleanup stack first.
	StepFaultApply Kind = "fault-apply"
	// StepFaultUndo undoes it At (its end, or the run's), and pops it.
	StepFaultUndo Kind = "fault-undo"
	// StepFaultCheck, after the run, checks on every host that each fault
	// is undone and waits until every server answers health again.
	StepFaultCheck Kind = "fault-check"
)

// faultSteps returns the probe (before the warm-up), and the apply and
// undo steps of v's faults in the order of their times and the check (after
// the run), for a run of duration run.
func faultSteps(v *plan.Variant, run time.Duration) (probe, during []Step) {
	if !v.HasFaults() {
		return nil, nil
	}
	var hosts []string
	for _, f := range v.Faults {
		hosts = appendNew(hosts, f.Hosts...)
	}
	probe = []Step{{Kind: StepFaultProbe, Hosts: hosts}}
	type timed struct {
		at   time.Duration
		step Step
	}
	var ts []timed
	for i, f := range v.Faults {
		ts = append(ts, timed{f.At, Step{Kind: StepFaultApply, Hosts: f.Hosts, Fault: f, FaultIndex: i, At: f.At}})
		end := f.End(run)
		ts = append(ts, timed{end, Step{Kind: StepFaultUndo, Hosts: f.Hosts, Fault: f, FaultIndex: i, At: end}})
	}
	for i := 1; i < len(ts); i++ { // insertion sort: stable, by time
		for j := i; j > 0 && ts[j].at < ts[j-1].at; j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
	for _, t := range ts {
		during = append(during, t.step)
	}
	during = append(during, Step{Kind: StepFaultCheck, Hosts: hosts})
	return probe, during
}

// appendNew appends the names not yet in list.
func appendNew(list []string, names ...string) []string {
	for _, n := range names {
		found := false
		for _, x := range list {
			found = found || x == n
		}
		if !found {
			list = append(list, n)
		}
	}
	return list
}

// describeFault says what a fault step does.
func describeFault(s Step) string {
	hosts := strings.Join(s.Hosts, ", ")
	switch s.Kind {
	case StepFaultProbe:
		return "every fault's mechanism checked on " + hosts + " (nothing changed): a host that cannot apply one fails the cell here"
	case StepFaultApply:
		return fmt.Sprintf("at %s into the run: %s; its undo journaled and pushed on the cleanup stack first", short(s.At), FaultText(s.Fault))
	case StepFaultUndo:
		return fmt.Sprintf("at %s into the run: %s", short(s.At), undoText(s.Fault))
	case StepFaultCheck:
		return "every fault checked undone on " + hosts + " (throttles, mounts, processes, rules, qdiscs, rings); every server answers health again"
	}
	return ""
}

// FaultText says what fault f does, in a few words.
func FaultText(f *plan.Fault) string {
	on := strings.Join(f.Hosts, ", ")
	disks := strings.Join(f.Disks, ", ")
	svc := strings.Join(f.Services, ", ")
	switch f.Kind {
	case plan.FaultSlowDisk:
		var lim []string
		for _, l := range []struct {
			n    int64
			what string
		}{{f.ReadBytesPerS, "read %s/s"}, {f.WriteBytesPerS, "write %s/s"}} {
			if l.n > 0 {
				lim = append(lim, fmt.Sprintf(l.what, bytesText(l.n)))
			}
		}
		if f.ReadIOPS > 0 {
			lim = append(lim, fmt.Sprintf("%d read IOPS", f.ReadIOPS))
		}
		if f.WriteIOPS > 0 {
			lim = append(lim, fmt.Sprintf("%d write IOPS", f.WriteIOPS))
		}
		return fmt.Sprintf("slow_disk %s on %s throttled to %s for %s", disks, on, strings.Join(lim, ", "), svc)
	case plan.FaultFailDisk:
		return fmt.Sprintf("fail_disk %s on %s unmounted (mount_check answers 507)", disks, on)
	case plan.FaultStop:
		return fmt.Sprintf("stop %s on %s (%s)", svc, on, f.How)
	case plan.FaultPause:
		return fmt.Sprintf("pause %s on %s (%s)", svc, on, f.How)
	case plan.FaultPartition:
		what := "its Swift ports"
		if len(f.Ports) > 0 {
			what = fmt.Sprintf("ports %v", f.Ports)
		} else if svc != "" {
			what = svc + "'s ports"
		}
		return fmt.Sprintf("partition: %s dropped on %s", what, on)
	case plan.FaultSlowLink:
		return fmt.Sprintf("slow_link: %s's interface sends at %s (tc tbf)", on, f.Rate)
	case plan.FaultRebalance:
		return fmt.Sprintf("rebalance: ring %s's device %s on %s to weight %g, rebalanced and pushed", f.Ring, disks, on, f.Weight)
	}
	return f.Kind
}

// undoText says what undoing f does.
func undoText(f *plan.Fault) string {
	on := strings.Join(f.Hosts, ", ")
	return map[string]string{
		plan.FaultSlowDisk:  "the throttle of " + strings.Join(f.Disks, ", ") + " on " + on + " lifted",
		plan.FaultFailDisk:  strings.Join(f.Disks, ", ") + " mounted back on " + on,
		plan.FaultStop:      strings.Join(f.Services, ", ") + " started on " + on,
		plan.FaultPause:     strings.Join(f.Services, ", ") + " resumed on " + on,
		plan.FaultPartition: "the ports opened on " + on,
		plan.FaultSlowLink:  "the tbf qdisc removed on " + on,
		plan.FaultRebalance: "the original " + f.Ring + " builder and ring put back and pushed",
	}[f.Kind]
}

// bytesText is n bytes in MiB or KiB.
func bytesText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}
