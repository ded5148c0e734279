package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"benchbed/results"
	"benchbed/results/telemetry"
)

// telemetrySection is one cell's telemetry as the report shows it: a
// heading, the bottleneck line, the page cache's warning and one table.
type telemetrySection struct {
	Cell       string
	Heading    string
	Bottleneck string
	Warning    string // the page cache's, "" when the reads hit the disks
	// Shared names the disks of a host that are one block device: their
	// figures are the device's, the same for each.
	Shared []string
	Table  table
}

// telemetrySections are the sections of the cells that have telemetry,
// in order.
func (r *Report) telemetrySections() []telemetrySection {
	var out []telemetrySection
	groups := r.kernelGroups()
	for _, c := range r.Run.Summary.Cells {
		if c.Telemetry != nil {
			out = append(out, cellTelemetry(c, groups, r.caveatSaid))
		}
	}
	return out
}

// cellTelemetry lays out c's telemetry summary: per host its CPU busy and
// iowait (and steal when any), per disk its utilisation with its await
// and traffic in the note, the busiest disk marked, per service its CPU
// summed over its processes, and Swift's own statsd timers when the sweep
// received them. Hosts of one kernel (groups) have their CPU rows once;
// the page cache's warning is left out when said reports it said already.
func cellTelemetry(c results.Cell, groups []kernelGroup, said func(string) bool) telemetrySection {
	t := c.Telemetry
	s := telemetrySection{Cell: cellName(c), Bottleneck: t.Bottleneck,
		Heading: fmt.Sprintf("Telemetry of %s (run phase: %s s, a sample every %s s)", cellName(c), f1(t.RunSeconds), f1(t.IntervalS))}
	if t.PageCache != nil {
		s.Warning = t.PageCache.Warning
	}
	if said != nil && said("page cache: ") {
		s.Warning = "" // the run's caveats say it, once
	}
	s.Shared = sharedDevices(t.Disks)
	tb := table{Title: "Telemetry of " + cellName(c), Header: []string{"resource", "mean", "p95", "max", "note"}, Class: "telemetry"}
	tb.Rows = hostRows(t.Hosts, groups)
	for _, d := range t.Disks {
		name := d.Host + ":" + d.Disk
		note := fmt.Sprintf("%s; await %s ms (max %s); %s MB/s read, %s written; %s IOPS", d.Dev, f1(d.Await.Mean),
			f1(d.Await.Max), f1(d.ReadMB.Mean), f1(d.WriteMB.Mean), f1(d.IOPS.Mean))
		if name == t.Busiest {
			note = "BUSIEST; " + note
		}
		tb.Rows = append(tb.Rows, []string{name + " util %", f1(d.Util.Mean), "", f1(d.Util.Max), note})
	}
	for _, v := range t.Services {
		tb.Rows = append(tb.Rows, statRow(v.Host+" "+v.Service+" CPU % of a core", v.CPU,
			strconv.Itoa(v.Processes)+" process(es), RSS max "+f1(v.RSS.Max)+" MB"))
	}
	for _, m := range t.Statsd {
		tb.Rows = append(tb.Rows, []string{"statsd " + m.Metric + " ms", f1(m.Mean), "", f1(m.Max),
			strconv.Itoa(m.N) + " timings, the service's own, received on " + m.Host})
	}
	s.Table = tb
	return s
}

// caveatSaid reports whether one of the run's caveats, at the top of the
// report, starts with s ("page cache: ").
func (r *Report) caveatSaid(s string) bool {
	return r.Verdict != nil && slices.ContainsFunc(r.Verdict.Caveats, func(c string) bool { return strings.HasPrefix(c, s) })
}

// hostRows are the CPU rows of each host, or of each kernel the hosts
// share (under their names, from the first one's agent: one kernel's
// figures, each agent sampling them at its own instants).
func hostRows(hosts []telemetry.HostSummary, groups []kernelGroup) [][]string {
	var present []string
	for _, h := range hosts {
		present = append(present, h.Host)
	}
	var rows [][]string
	for _, h := range hosts {
		name, shown := shownHost(groups, h.Host, present)
		switch {
		case !shown:
			continue
		case h.Samples == 0:
			rows = append(rows, []string{name + " CPU busy %", "", "", "", "no sample in the run phase"})
			continue
		}
		rows = append(rows, statRow(name+" CPU busy %", h.CPUBusy, fmt.Sprintf("%d samples; load1 %s; agent %s %% of a core",
			h.Samples, f1(h.Load1.Mean), f1(h.AgentCPU))))
		rows = append(rows, statRow(name+" iowait %", h.IOWait, ""))
		if h.Steal.Max > 0 {
			rows = append(rows, statRow(name+" steal %", h.Steal, ""))
		}
	}
	return rows
}

// telemetryOverview is one row per cell with telemetry: its bottleneck,
// its busiest disk, its busiest host's CPU and whether the GETs' working
// set fits in the page cache.
func (r *Report) telemetryOverview() table {
	t := table{Title: "Telemetry per cell (run phase)", Header: []string{"cell", "bottleneck", "busiest disk",
		"util % mean/max", "busiest CPU", "busy % p95", "page cache"}, Class: "overview"}
	groups := r.kernelGroups()
	for _, c := range r.Run.Summary.Cells {
		tel := c.Telemetry
		if tel == nil {
			continue
		}
		util, host, busy := "", "", ""
		for _, d := range tel.Disks {
			if d.Host+":"+d.Disk == tel.Busiest {
				util = f1(d.Util.Mean) + " / " + f1(d.Util.Max)
			}
		}
		best := -1
		for i, h := range tel.Hosts {
			if best < 0 || h.CPUBusy.P95 > tel.Hosts[best].CPUBusy.P95 {
				best = i
			}
		}
		if best >= 0 {
			host, busy = tel.Hosts[best].Host, f1(tel.Hosts[best].CPUBusy.P95)
			if g := groupOf(groups, host); g != nil {
				host = g.Label()
			}
		}
		t.Rows = append(t.Rows, []string{cellName(c), tel.Bottleneck, tel.Busiest, util, host, busy, pageCacheText(tel.PageCache)})
	}
	return t
}

// pageCacheText says in a word where the GETs' reads came from.
func pageCacheText(pc *telemetry.PageCache) string {
	switch {
	case pc == nil:
		return "not checked"
	case pc.Fits && pc.Dropped:
		return "fits (dropped before the cell)"
	case pc.Fits:
		return "FITS: reads from memory"
	}
	return "does not fit"
}

// sharedDevices lists, per host and block device, the disks that resolve
// to the same device: "stor1: d0, d1 on vda".
func sharedDevices(disks []telemetry.DiskSummary) []string {
	var keys []string
	byDev := map[string][]string{}
	for _, d := range disks {
		k := d.Host + "\x00" + d.Dev
		if byDev[k] == nil {
			keys = append(keys, k)
		}
		byDev[k] = append(byDev[k], d.Disk)
	}
	var out []string
	for _, k := range keys {
		if names := byDev[k]; len(names) > 1 {
			host, dev, _ := strings.Cut(k, "\x00")
			out = append(out, host+": "+strings.Join(names, ", ")+" on "+dev)
		}
	}
	return out
}

func statRow(name string, st telemetry.Stat, note string) []string {
	return []string{name, f1(st.Mean), f1(st.P95), f1(st.Max), note}
}

// writeTelemetry writes each cell's telemetry section as text or markdown.
func (r *Report) writeTelemetry(w io.Writer, head func(int, string), markdown bool) error {
	if o := r.telemetryOverview(); len(o.Rows) > 0 {
		head(2, o.Title)
		if err := writeTable(w, o, markdown, r.textWidth()); err != nil {
			return err
		}
	}
	for _, g := range r.kernelGroups() {
		fmt.Fprintf(w, "%s\n", g.Text())
	}
	for _, s := range r.telemetrySections() {
		head(2, s.Heading)
		item := "" // a list item in markdown, so that the lines stay apart
		if markdown {
			item = "- "
		}
		if s.Bottleneck != "" {
			fmt.Fprintf(w, "%sbottleneck: %s\n", item, s.Bottleneck)
		}
		if s.Warning != "" {
			fmt.Fprintf(w, "%sWARNING: page cache: %s\n", item, s.Warning)
		}
		if len(s.Shared) > 0 {
			fmt.Fprintf(w, "%s%s\n", item, sharedText(s.Shared))
		}
		if markdown {
			fmt.Fprintln(w)
		}
		if err := writeTable(w, s.Table, markdown, r.textWidth()); err != nil {
			return err
		}
	}
	return nil
}

// sharedText says which disks share a device and what that means.
func sharedText(shared []string) string {
	return "disks on one device (their figures are the device's, the same for each): " + strings.Join(shared, "; ")
}
