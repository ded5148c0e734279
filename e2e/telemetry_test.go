package e2e

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/results"
	"benchbed/results/telemetry"
)

// telemetryServices are the daemons the lab's sweep runs per host, and
// client1's load agents.
var telemetryServices = map[string][]string{
	"proxy1":  {"memcached", "proxy-server"},
	"stor1":   {"account-server", "container-server", "object-server"},
	"stor2":   {"account-server", "container-server", "object-server"},
	"client1": {"load-agent"},
}

// TestTelemetry: the shared sweep (sharedSweep: normal, threads_per_disk=1
// and servers_per_port=1, 6 s runs, telemetry on with statsd and
// drop_caches; its first cell measured before an interrupt, the second by
// a resume, the third by the resume after that one was SIGKILLed) gives
// each cell telemetry of every host, every disk and every service, with as
// many run-phase samples as the run has seconds (within one), in
// summary.json and in one samples file per host; servers_per_port=1 (a
// server per disk, four a host) runs more object-server processes than
// normal (two workers) and threads_per_disk=1 (one); the live line names the
// busiest host and disk; with statsd = true the object servers' own GET
// timings arrive at client1's agent; with drop_caches = true the caches are
// dropped before each run and the page-cache check (500 objects of 64 KiB
// fit) says so. The telemetry agent's CPU per host is
// logged (the target is under 1 % of one core).
func TestTelemetry(t *testing.T) {
	lab := Lab(t)
	s := sharedSweep(t, lab)
	if !strings.Contains(s.errOut, "busiest: ") {
		t.Errorf("the live line names no busiest host and disk:\n%s", s.errOut)
	}
	sum := readSummary(t, s.run)
	if len(sum.Cells) != 3 {
		t.Fatalf("%d cells, want 3", len(sum.Cells))
	}
	procs := map[string]int{}
	for _, c := range sum.Cells {
		checkCellTelemetry(t, s.run, c)
		for _, svc := range c.Telemetry.Services {
			if svc.Host == "stor1" && svc.Service == "object-server" {
				procs[c.Variant] = svc.Processes
			}
		}
		for _, h := range c.Telemetry.Hosts {
			t.Logf("cell %s: %s: telemetry agent CPU %.2f%% of one core (mean over %d samples)", c.ID, h.Host, h.AgentCPU, h.Samples)
		}
		t.Logf("cell %s: bottleneck %q, busiest disk %s, object-server processes on stor1: %d", c.ID,
			c.Telemetry.Bottleneck, c.Telemetry.Busiest, procs[c.Variant])
		checkStatsd(t, c)
		if pc := c.Telemetry.PageCache; pc == nil || !pc.Fits || !pc.Dropped || pc.WorkingSetMB <= 0 || !strings.Contains(pc.Warning, "dropped") {
			t.Errorf("cell %s: page cache check %+v: want the working set to fit and the caches dropped", c.ID, pc)
		}
	}
	if procs["servers_per_port=1"] <= procs["normal"] || procs["normal"] <= procs["threads_per_disk=1"] {
		t.Errorf("object-server processes on stor1: %v; servers_per_port=1 (one per disk, four disks) should run more than normal (two workers), normal more than threads_per_disk=1 (one worker)", procs)
	}
	checkTelemetryReport(t, lab, s.run, sum)
}

// checkCellTelemetry checks one cell's telemetry: every host with one
// run-phase sample per second of the run (within one) in summary.json and
// in its samples file, every disk of the storage hosts resolved, every
// service present with its processes, and the agent's own CPU low.
func checkCellTelemetry(t *testing.T, run string, c results.Cell) {
	t.Helper()
	tm := c.Telemetry
	if tm == nil {
		t.Fatalf("cell %s has no telemetry", c.ID)
	}
	for i, h := range Hosts {
		if i >= len(tm.Hosts) || tm.Hosts[i].Host != h {
			t.Fatalf("cell %s: telemetry hosts %+v, want %v in order", c.ID, tm.Hosts, Hosts)
		}
		hs := tm.Hosts[i]
		if math.Abs(float64(hs.Samples)-c.DurationS) > 1 {
			t.Errorf("cell %s: %s has %d run samples for a %.1f s run", c.ID, h, hs.Samples, c.DurationS)
		}
		if n := runLines(t, filepath.Join(run, "cells", c.ID, "telemetry", h+".jsonl")); n != hs.Samples {
			t.Errorf("cell %s: %s.jsonl has %d run samples, summary.json %d", c.ID, h, n, hs.Samples)
		}
		// The target is 1 % of a core (0.1 to 0.2 % measured); client1's
		// agent also receives every server's statsd timers.
		if limit := map[bool]float64{false: 2, true: 15}[h == "client1"]; hs.AgentCPU > limit {
			t.Errorf("cell %s: the telemetry agent on %s took %.2f%% of a core (limit %.0f%%)", c.ID, h, hs.AgentCPU, limit)
		}
	}
	disks := map[string]string{}
	for _, d := range tm.Disks {
		disks[d.Host+":"+d.Disk] = d.Dev
	}
	for _, h := range []string{"stor1", "stor2"} {
		for _, d := range []string{"d0", "d1", "d2", "d3", "m0"} {
			if disks[h+":"+d] == "" {
				t.Errorf("cell %s: disk %s:%s missing or unresolved: %v", c.ID, h, d, disks)
			}
		}
	}
	seen := map[string]int{}
	for _, s := range tm.Services {
		seen[s.Host+":"+s.Service] = s.Processes
	}
	for h, svcs := range telemetryServices {
		for _, svc := range svcs {
			if seen[h+":"+svc] == 0 {
				t.Errorf("cell %s: service %s on %s: no process found (%v)", c.ID, svc, h, seen)
			}
		}
	}
}

// runLines counts the run-phase samples of a samples file.
func runLines(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	must(t, err)
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		var s telemetry.Sample
		must(t, json.Unmarshal(sc.Bytes(), &s))
		if s.Phase == telemetry.PhaseRun {
			n++
		}
	}
	return n
}

// checkStatsd checks that every object server's GET timings reached the
// statsd receiver of client1 during the run.
func checkStatsd(t *testing.T, c results.Cell) {
	t.Helper()
	got := map[string]int{}
	for _, m := range c.Telemetry.Statsd {
		if m.Host == "client1" {
			got[m.Metric] = m.N
		}
	}
	for _, h := range []string{"stor1", "stor2"} {
		if got[h+".object-server.GET.timing"] == 0 {
			t.Errorf("cell %s: no statsd GET timing of %s's object server at client1 (%d metrics: %v)", c.ID, h, len(got), got)
		}
	}
	t.Logf("cell %s: statsd metrics (timings received) %v; stor1.object-server.GET.timing: %+v", c.ID, got, statsdOf(c, "stor1.object-server.GET.timing").Timer)
}

// statsdOf returns a cell's statsd summary of metric.
func statsdOf(c results.Cell, metric string) telemetry.StatsdSummary {
	for _, m := range c.Telemetry.Statsd {
		if m.Metric == metric {
			return m
		}
	}
	return telemetry.StatsdSummary{}
}
