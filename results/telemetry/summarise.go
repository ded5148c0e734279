package telemetry

import (
	"maps"
	"slices"
	"time"
)

// HostSamples is one host's samples of a cell, in time order.
type HostSamples struct {
	Host    string
	Samples []Sample
}

// CellInput is what a cell's telemetry summary is computed from.
type CellInput struct {
	Hosts    []HostSamples // in the testbed's order
	Interval time.Duration
	// ObjectHosts are the hosts whose page cache can hold the GETs'
	// working set; WorkingSetMB is that working set (0: no check), and
	// Dropped says that the caches were dropped before the cell.
	ObjectHosts  []string
	WorkingSetMB float64
	Dropped      bool
}

// Summarise computes a cell's CellSummary from the run phase's samples.
func Summarise(in CellInput) CellSummary {
	out := CellSummary{IntervalS: round(in.Interval.Seconds(), 1)}
	var first, last time.Time
	var hot []candidate
	for _, h := range in.Hosts {
		run := runPhase(h.Samples)
		if len(run) == 0 {
			out.Hosts = append(out.Hosts, HostSummary{Host: h.Host})
			continue
		}
		if first.IsZero() || run[0].T.Before(first) {
			first = run[0].T
		}
		if t := run[len(run)-1].T; t.After(last) {
			last = t
		}
		hs := summariseHost(h.Host, run)
		out.Hosts = append(out.Hosts, hs)
		hot = append(hot, candidate{hs.CPUBusy.P95, h.Host + " CPU", "busy"},
			candidate{hs.IOWait.P95, h.Host + " iowait", ""})
		disks, dhot := summariseDisks(h.Host, run)
		out.Disks, hot = append(out.Disks, disks...), append(hot, dhot...)
		out.Services = append(out.Services, summariseServices(h.Host, run)...)
		out.Statsd = append(out.Statsd, summariseStatsd(h.Host, run)...)
	}
	if !first.IsZero() {
		out.RunSeconds = round(last.Sub(first).Seconds()+in.Interval.Seconds(), 1)
	}
	out.Busiest = busiest(out.Disks)
	out.Bottleneck = bottleneck(hot)
	if in.WorkingSetMB > 0 || in.Dropped {
		out.PageCache = CheckPageCache(in.WorkingSetMB, ObjectHostsCacheMB(in.Hosts, in.ObjectHosts), in.Dropped)
	}
	return out
}

// runPhase returns the samples of the run phase.
func runPhase(samples []Sample) []Sample {
	var out []Sample
	for _, s := range samples {
		if s.Phase == PhaseRun {
			out = append(out, s)
		}
	}
	return out
}

// summariseHost summarises one host's run samples.
func summariseHost(host string, run []Sample) HostSummary {
	var busy, iowait, steal, load, cache, rx, tx, self series
	for _, s := range run {
		busy, iowait, steal = append(busy, s.CPU.Busy), append(iowait, s.CPU.IOWait), append(steal, s.CPU.Steal)
		load, cache, self = append(load, s.Load1), append(cache, s.Mem.Cache), append(self, s.Self.CPU)
		var r, t float64
		for _, n := range s.Net {
			r, t = r+n.Rx, t+n.Tx
		}
		rx, tx = append(rx, r), append(tx, t)
	}
	return HostSummary{Host: host, Samples: len(run), CPUBusy: busy.stat(), IOWait: iowait.stat(),
		Steal: steal.stat(), Load1: load.stat(), Cache: cache.meanMax(), NetRx: rx.meanMax(),
		NetTx: tx.meanMax(), AgentCPU: round(self.mean(), 2)}
}

// summariseDisks summarises one host's disks (in name order), with their
// utilisation as bottleneck candidates.
func summariseDisks(host string, run []Sample) ([]DiskSummary, []candidate) {
	names := map[string]bool{}
	for _, s := range run {
		for n := range s.Disks {
			names[n] = true
		}
	}
	var out []DiskSummary
	var hot []candidate
	for _, name := range slices.Sorted(maps.Keys(names)) {
		var util, await, rd, wr, iops series
		dev := ""
		for _, s := range run {
			d, ok := s.Disks[name]
			if !ok {
				continue
			}
			dev = d.Dev
			util, await, iops = append(util, d.Util), append(await, d.Await), append(iops, d.Reads+d.Writes)
			rd, wr = append(rd, d.ReadMB), append(wr, d.WriteMB)
		}
		out = append(out, DiskSummary{Host: host, Disk: name, Dev: dev, Util: util.meanMax(), Await: await.meanMax(),
			ReadMB: rd.meanMax(), WriteMB: wr.meanMax(), IOPS: iops.meanMax()})
		hot = append(hot, candidate{util.stat().P95, host + ":" + name + " (" + dev + ")", "utilised"})
	}
	return out, hot
}

// summariseServices summarises one host's services (in name order).
func summariseServices(host string, run []Sample) []ServiceSummary {
	names := map[string]bool{}
	for _, s := range run {
		for n := range s.Procs {
			names[n] = true
		}
	}
	var out []ServiceSummary
	for _, name := range slices.Sorted(maps.Keys(names)) {
		var cpu, rss series
		n := 0
		for _, s := range run {
			p := s.Procs[name]
			cpu, rss, n = append(cpu, p.CPU), append(rss, p.RSS), max(n, p.N)
		}
		out = append(out, ServiceSummary{Host: host, Service: name, Processes: n, CPU: cpu.stat(),
			RSS: Peak{Max: rss.stat().Max}})
	}
	return out
}

// busiest names the disk of the highest mean utilisation, "host:disk".
func busiest(disks []DiskSummary) string {
	best := -1
	for i, d := range disks {
		if best < 0 || d.Util.Mean > disks[best].Util.Mean {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return disks[best].Host + ":" + disks[best].Disk
}
