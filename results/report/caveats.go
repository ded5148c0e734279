package report

import (
	"fmt"
	"slices"
	"strings"

	"benchbed/results/telemetry"
)

// hostCaveats are the run's caveats from its hosts, each said once: hosts
// that share a kernel, testbed disks that share a device, and load hosts
// whose CPU was saturated.
func (r *Report) hostCaveats() []string {
	groups := r.kernelGroups()
	var out []string
	for _, g := range groups {
		out = append(out, "hosts sharing a kernel: "+g.Text())
	}
	if d := r.sharedDisks(groups); d != "" {
		out = append(out, d)
	}
	if c := r.busyClients(groups); c != "" {
		out = append(out, c)
	}
	return out
}

// machineOf names the machine host h is on: its kernel group's first
// host, else itself.
func machineOf(h string, groups []kernelGroup) string {
	if g := groupOf(groups, h); g != nil {
		return g.Hosts[0]
	}
	return h
}

// sharedDisks says which testbed disks sit on one device of one machine
// (the lab's directories on this machine's disk, or several testbed disks
// on one host's): their figures are that device's, and what a variant
// gains from spreading work over disks cannot show. "" when none do.
func (r *Report) sharedDisks(groups []kernelGroup) string {
	type key struct{ machine, dev string }
	on := map[key][]string{}
	var keys []key
	for _, c := range r.Run.Summary.Cells {
		if c.Telemetry == nil {
			continue
		}
		for _, d := range c.Telemetry.Disks {
			if d.Dev == "" {
				continue
			}
			k := key{machineOf(d.Host, groups), d.Dev}
			name := d.Host + ":" + d.Disk
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
			if !slices.Contains(on[k], name) {
				on[k] = append(on[k], name)
			}
		}
	}
	var parts []string
	for _, k := range keys {
		if ds := on[k]; len(ds) > 1 {
			parts = append(parts, fmt.Sprintf("%d disks (%s) are on one device, %s", len(ds), diskList(ds), k.dev))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "disks sharing a device: " + strings.Join(parts, "; ") +
		": their figures are that device's, and a variant that spreads work over disks (servers_per_port, more devices) cannot gain from them"
}

// diskList writes host:disk names grouped by host: "stor1: d0, d1, m0;
// stor2: d0".
func diskList(ds []string) string {
	var hosts []string
	by := map[string][]string{}
	for _, d := range ds {
		h, disk, _ := strings.Cut(d, ":")
		if by[h] == nil {
			hosts = append(hosts, h)
		}
		by[h] = append(by[h], disk)
	}
	parts := make([]string, len(hosts))
	for i, h := range hosts {
		parts[i] = h + ": " + strings.Join(by[h], ", ")
	}
	return strings.Join(parts, "; ")
}

// busyClients says in how many cells a host that ran load agents had its
// CPU saturated (p95 at or over telemetry.Saturated): the load generator
// may have set the figures, not the cluster; and when the load host
// shares its kernel with servers, that they competed for one machine's
// CPU. "" when no load host was saturated.
func (r *Report) busyClients(groups []kernelGroup) string {
	busy, cells := map[string]int{}, 0
	var hosts []string
	shared := false
	for i := range r.Run.Summary.Cells {
		c := &r.Run.Summary.Cells[i]
		if c.Telemetry == nil {
			continue
		}
		cells++
		for _, h := range r.Run.AgentHosts(c) {
			hs := hostSummary(c.Telemetry, h)
			if hs == nil || hs.CPUBusy.P95 < telemetry.Saturated {
				continue
			}
			if busy[h]++; busy[h] == 1 {
				hosts = append(hosts, h)
			}
			shared = shared || groupOf(groups, h) != nil
		}
	}
	if len(hosts) == 0 {
		return ""
	}
	var parts []string
	for _, h := range hosts {
		parts = append(parts, fmt.Sprintf("%s in %d of %d cells", h, busy[h], cells))
	}
	s := fmt.Sprintf("load hosts' CPU saturated (p95 at or over %d%%): %s: ", telemetry.Saturated, strings.Join(parts, ", "))
	if shared {
		return s + "they share one kernel with servers, so the agents and the servers competed for one machine's CPU: " +
			"the figures are that machine's, not the cluster's"
	}
	return s + "the load agents may have set the figures, not the cluster; add client hosts or agents_per_client"
}
