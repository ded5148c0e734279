package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"benchbed/results/telemetry"
)

// kernelGroup is hosts that share one kernel, as the lab's hosts do (each
// is a network namespace of one machine): their CPU, memory and page
// cache are the machine's, the same figures for each.
type kernelGroup struct {
	Hosts []string
	By    string // how it was told: "same uname -a, CPUs and memory" or "identical CPU series"
}

// Label names the group's hosts: "proxy1, stor1, stor2, client1".
func (g kernelGroup) Label() string { return strings.Join(g.Hosts, ", ") }

// Text says it in a line: "proxy1, stor1, stor2, client1: one kernel (...)".
func (g kernelGroup) Text() string {
	return g.Label() + ": one kernel (" + g.By + "): their CPU, memory and page cache are one machine's, shown once"
}

// kernelGroups finds the run's hosts that share a kernel, in the order the
// telemetry names them. Hosts with env/<host>.txt share one when their
// kernel line (uname -a: it names the machine as well as the kernel's
// build; network namespaces share both), CPUs and memory are the same;
// hosts without it, when their CPU figures are identical in every cell
// with telemetry. Groups of one host are left out.
func (r *Report) kernelGroups() []kernelGroup {
	env := r.kernelKeys()
	hosts := r.hostOrder()
	var out []kernelGroup
	seen := map[string]bool{}
	for _, h := range hosts {
		if seen[h] {
			continue
		}
		g := r.groupFrom(h, hosts, env, seen)
		for _, x := range g.Hosts {
			seen[x] = true
		}
		if len(g.Hosts) > 1 {
			out = append(out, g)
		}
	}
	return out
}

// groupFrom is host h with the hosts not yet seen that share its kernel:
// the same key in env, or, neither having one, identical CPU figures.
func (r *Report) groupFrom(h string, hosts []string, env map[string]string, seen map[string]bool) kernelGroup {
	g := kernelGroup{Hosts: []string{h}, By: "same uname -a, CPUs and memory"}
	if env[h] == "" {
		g.By = "identical CPU series"
	}
	for _, o := range hosts {
		if o != h && !seen[o] && env[o] == env[h] && (env[h] != "" || r.sameCPU(h, o)) {
			g.Hosts = append(g.Hosts, o)
		}
	}
	return g
}

// kernelKeys is what tells each host's kernel in env/<host>.txt: its
// uname -a line, CPUs and memory; none for a host without a kernel line.
func (r *Report) kernelKeys() map[string]string {
	out := map[string]string{}
	for _, h := range r.Env {
		sec := envSections(h.Text)
		if k := firstLine(sec["kernel"]); k != "" {
			out[h.Host] = k + "\x00" + sec["cpu"] + "\x00" + sec["memory"]
		}
	}
	return out
}

// hostOrder is every host the run names: its telemetry's in their order,
// then those with an environment only.
func (r *Report) hostOrder() []string {
	var out []string
	for _, c := range r.Run.Summary.Cells {
		if c.Telemetry == nil {
			continue
		}
		for _, h := range c.Telemetry.Hosts {
			if !slices.Contains(out, h.Host) {
				out = append(out, h.Host)
			}
		}
	}
	for _, e := range r.Env {
		if !slices.Contains(out, e.Host) {
			out = append(out, e.Host)
		}
	}
	return out
}

// sameCPU reports whether hosts a and b have identical CPU figures (busy,
// iowait, steal, load) in every cell with telemetry of both, and there is
// at least one such cell with samples.
func (r *Report) sameCPU(a, b string) bool {
	n := 0
	for _, c := range r.Run.Summary.Cells {
		if c.Telemetry == nil {
			continue
		}
		ha, hb := hostSummary(c.Telemetry, a), hostSummary(c.Telemetry, b)
		if ha == nil || hb == nil {
			continue
		}
		if ha.Samples == 0 || ha.Samples != hb.Samples || ha.CPUBusy != hb.CPUBusy || ha.IOWait != hb.IOWait ||
			ha.Steal != hb.Steal || ha.Load1 != hb.Load1 {
			return false
		}
		n++
	}
	return n > 0
}

func hostSummary(t *telemetry.CellSummary, host string) *telemetry.HostSummary {
	i := slices.IndexFunc(t.Hosts, func(h telemetry.HostSummary) bool { return h.Host == host })
	if i < 0 {
		return nil
	}
	return &t.Hosts[i]
}

// shownHost is how a host's CPU appears in a cell's telemetry: under its
// kernel group's label when it is the first of the group's hosts present
// in the cell, not at all (false) for the group's others.
func shownHost(groups []kernelGroup, host string, present []string) (string, bool) {
	for _, g := range groups {
		if !slices.Contains(g.Hosts, host) {
			continue
		}
		var here []string
		for _, h := range g.Hosts {
			if slices.Contains(present, h) {
				here = append(here, h)
			}
		}
		if len(here) < 2 {
			return host, true
		}
		return strings.Join(here, ", "), here[0] == host
	}
	return host, true
}

// memText is the memory section of env/<host>.txt in GiB: "23.5 GiB, swap
// 1.0 GiB"; the section as it is when it holds no kB figure.
func memText(sec string) string {
	var out []string
	for line := range strings.SplitSeq(sec, "\n") {
		k, v, ok := strings.Cut(line, ":")
		f := strings.Fields(v)
		if !ok || len(f) != 2 || f[1] != "kB" {
			continue
		}
		kb, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			continue
		}
		gib := fmt.Sprintf("%.1f GiB", kb/(1<<20))
		switch strings.TrimSpace(k) {
		case "MemTotal":
			out = append([]string{gib}, out...)
		case "SwapTotal":
			out = append(out, "swap "+gib)
		}
	}
	if len(out) == 0 {
		return firstLine(sec)
	}
	return strings.Join(out, ", ")
}

// groupOf is the kernel group of host, nil when it shares its kernel with
// no other.
func groupOf(groups []kernelGroup, host string) *kernelGroup {
	for i, g := range groups {
		if slices.Contains(g.Hosts, host) {
			return &groups[i]
		}
	}
	return nil
}
