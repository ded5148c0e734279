package decode

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
)

// checkFaultKind checks what a fault of f's kind needs of its own block.
func (d *decoder) checkFaultKind(f *plan.Fault, b *hcl.Block, c *hcl.BodyContent) {
	need := func(attr, why string) {
		if c.Attributes[attr] == nil {
			d.Errorf(b.DefRange.Ptr(), "Missing "+attr, "a %s fault needs %s: %s", f.Kind, attr, why)
		}
	}
	switch f.Kind {
	case plan.FaultSlowDisk:
		need("disks", "the ring devices whose block devices are throttled")
		if f.ReadBytesPerS == 0 && f.WriteBytesPerS == 0 && f.ReadIOPS == 0 && f.WriteIOPS == 0 {
			d.Errorf(b.DefRange.Ptr(), "No throttle", "a slow_disk fault needs at least one of read_bytes_per_s, write_bytes_per_s, read_iops, write_iops")
		}
	case plan.FaultFailDisk:
		need("disks", "the ring devices unmounted")
	case plan.FaultStop, plan.FaultPause:
		need("service", "the service whose processes are stopped or frozen")
	case plan.FaultSlowLink:
		need("rate", "the interface's rate, such as \"10mbit\"")
	case plan.FaultRebalance:
		need("ring", "the ring rebalanced")
		need("weight", "the device's new weight (0 drains it)")
		if len(f.Hosts) != 1 || len(f.Disks) != 1 {
			d.Errorf(b.DefRange.Ptr(), "One device per rebalance", "a rebalance fault re-weights one device: one host and one disk, got %d hosts and %d disks",
				len(f.Hosts), len(f.Disks))
		}
	}
	if f.Kind == plan.FaultSlowDisk && len(f.Services) == 0 {
		f.Services = diskServices(d.tb, f)
	}
	if f.How == "" {
		f.How = map[string]string{plan.FaultStop: plan.HowManager, plan.FaultPause: plan.HowSignal}[f.Kind]
	}
}

// validateFaults checks every variant's faults against the hosts, disks,
// services and rings of the testbed and against the runs of its workloads.
func validateFaults(tb *plan.Testbed, add addFunc) {
	runs := map[*plan.Workload]time.Duration{} // each workload's run, its scenario parsed once
	for _, v := range tb.Variants {
		for _, f := range v.Faults {
			validateFaultTargets(tb, v, f, add)
			validateFaultTimes(tb, v, f, runs, add)
		}
	}
}

// validateFaultTargets checks f's disks, services and ring on its hosts,
// and that their managers can do what f asks.
func validateFaultTargets(tb *plan.Testbed, v *plan.Variant, f *plan.Fault, add addFunc) {
	bad := func(format string, a ...any) {
		add(hcl.DiagError, f.DefRange, "Fault cannot apply", "variant %q: "+format, append([]any{v.Name}, a...)...)
	}
	for _, h := range f.Hosts {
		host := tb.Host(h)
		if host == nil {
			continue // reported by checkHosts
		}
		for _, name := range f.Disks {
			disk := hostDisk(host, name)
			switch {
			case disk == nil:
				bad("host %q has no disk %q (its disks: %s)", h, name, strings.Join(hostDiskNames(host), ", "))
			case disk.Device == "" && (f.Kind == plan.FaultSlowDisk || f.Kind == plan.FaultFailDisk):
				bad("disk %q of host %q is a directory under /srv/node, not a device: a %s fault needs its block device (a loop device per disk in a lab)", name, h, f.Kind)
			}
		}
	}
	if f.Kind == plan.FaultSlowDisk && len(f.Services) == 0 {
		bad("no storage service uses disks %s on %s: name the service whose I/O is throttled", strings.Join(f.Disks, ", "), strings.Join(f.Hosts, ", "))
	}
	for _, name := range f.Services {
		validateFaultService(tb, f, name, bad, add)
	}
	if f.Kind == plan.FaultFailDisk {
		warnMountCheck(tb, v, f, add)
	}
	if f.Kind == plan.FaultRebalance && f.Ring != "" {
		r := tb.Ring(f.Ring)
		switch {
		case r == nil:
			bad("the rebalance fault names ring %q, and there is no such ring", f.Ring)
		case len(f.Hosts) == 1 && !slices.Contains(hostNamesOf(tb.HostsWithRole(r.Role)), f.Hosts[0]):
			bad("host %q has no role %q, so no device of ring %q", f.Hosts[0], r.Role, f.Ring)
		}
	}
}

// validateFaultService checks that service name exists, runs on f's hosts
// and that its manager can do f.
func validateFaultService(tb *plan.Testbed, f *plan.Fault, name string, bad func(string, ...any), add addFunc) {
	s := tb.Service(name)
	if s == nil {
		bad("the %s fault names service %q, and there is no such Swift service", f.Kind, name)
		return
	}
	for _, h := range f.Hosts {
		if host := tb.Host(h); host != nil && !host.HasRole(s.Role) {
			bad("service %q runs on hosts with role %q, and host %q has none", name, s.Role, h)
		}
	}
	if f.Kind == plan.FaultStop && f.How == plan.HowManager && s.Manager == plan.ManagerDirect {
		bad("service %q is started directly (manager = %q), with no manager to stop it: use how = %q (SIGKILL; started back as setup starts it)",
			name, plan.ManagerDirect, plan.HowKill)
	}
	if f.Kind == plan.FaultStop && f.How == plan.HowKill && s.Manager == plan.ManagerSystemd {
		add(hcl.DiagWarning, f.DefRange, "SIGKILL of a systemd unit",
			"service %q: a unit with Restart=on-failure (or always) is started again by systemd before the fault's undo; how = %q stops it for the fault's whole time", name, plan.HowManager)
	}
	if f.Kind == plan.FaultPause && f.How == plan.HowFreezer && s.Manager == plan.ManagerSwiftInit {
		bad("service %q is run by swift-init, which has no freezer: use how = %q (SIGSTOP/SIGCONT)", name, plan.HowSignal)
	}
}

// validateFaultTimes checks that f lies inside the measured run of every
// workload the variant runs with (those whose variants leave it out have
// no cell of it).
func validateFaultTimes(tb *plan.Testbed, v *plan.Variant, f *plan.Fault, runs map[*plan.Workload]time.Duration, add addFunc) {
	for _, w := range tb.WorkloadsOn(v) {
		dur, ok := runs[w]
		if !ok {
			_, dur = plan.RunShape(w)
			runs[w] = dur
		}
		switch {
		case w.IsCommand() || dur == 0:
			add(hcl.DiagError, f.DefRange, "Fault in a run of no fixed length",
				"variant %q has a %s fault at %s, and workload %q runs until its operation count or command ends: faults need a workload with a duration",
				v.Name, f.Kind, f.At, w.Name)
		case f.At >= dur:
			add(hcl.DiagError, f.DefRange, "Fault after the run",
				"variant %q: the %s fault starts at %s, and workload %q's run lasts %s", v.Name, f.Kind, f.At, w.Name, dur)
		case !f.ToEnd && f.At+f.For > dur:
			add(hcl.DiagError, f.DefRange, "Fault beyond the run",
				"variant %q: the %s fault lasts from %s to %s, beyond the end of workload %q's %s run (for = \"end\" lasts until the run ends)",
				v.Name, f.Kind, f.At, f.At+f.For, w.Name, dur)
		}
	}
}

// warnMountCheck warns when a fail_disk fault's storage servers do not
// check mounts: they would then write into the root filesystem instead of
// answering 507.
func warnMountCheck(tb *plan.Testbed, v *plan.Variant, f *plan.Fault, add addFunc) {
	for _, name := range diskServices(tb, f) {
		s := tb.Service(name)
		if mc, ok := tb.Effective(s, v)["DEFAULT"]["mount_check"]; !ok || !truthy(mc.Value) {
			add(hcl.DiagWarning, f.DefRange, "fail_disk without mount_check",
				"variant %q unmounts %s, and service %q does not set mount_check = true: it would write into the mount point's directory instead of answering 507",
				v.Name, strings.Join(f.Disks, ", "), name)
		}
	}
}

// truthy reads a Swift boolean.
func truthy(s string) bool {
	b, err := strconv.ParseBool(strings.TrimSpace(strings.ToLower(s)))
	return err == nil && b || slices.Contains([]string{"yes", "on"}, strings.ToLower(strings.TrimSpace(s)))
}

// diskServices returns the services of the rings whose disk groups hold
// f's disks on f's hosts: the storage servers whose I/O a slow disk slows.
func diskServices(tb *plan.Testbed, f *plan.Fault) []string {
	var out []string
	for _, r := range tb.Rings {
		for _, h := range f.Hosts {
			host := tb.Host(h)
			if host == nil || !host.HasRole(r.Role) || !groupHolds(host.DiskGroup(r.Disks), f.Disks) {
				continue
			}
			for _, s := range tb.Services {
				if s.Role == r.Role && !slices.Contains(out, s.Name) {
					out = append(out, s.Name)
				}
			}
		}
	}
	return out
}

// groupHolds reports whether group g holds any of the disks names.
func groupHolds(g *plan.DiskGroup, names []string) bool {
	if g == nil {
		return false
	}
	for _, d := range g.Disks {
		if slices.Contains(names, d.Name) {
			return true
		}
	}
	return false
}

// hostDisk returns host's disk named name in any of its groups, or nil.
func hostDisk(h *plan.Host, name string) *plan.Disk {
	for _, g := range h.Disks {
		for i := range g.Disks {
			if g.Disks[i].Name == name {
				return &g.Disks[i]
			}
		}
	}
	return nil
}

// hostDiskNames lists host's disk names.
func hostDiskNames(h *plan.Host) []string {
	var out []string
	for _, g := range h.Disks {
		for _, d := range g.Disks {
			out = append(out, d.Name)
		}
	}
	return out
}

// hostNamesOf returns the hosts' names.
func hostNamesOf(hosts []*plan.Host) []string {
	out := make([]string, len(hosts))
	for i, h := range hosts {
		out[i] = h.Name
	}
	return out
}
