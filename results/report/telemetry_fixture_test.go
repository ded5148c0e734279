package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"benchbed/results/rundir"
	"benchbed/results/telemetry"
)

// fixTelemetryHosts are the hosts of testdata/telemetry: the lab's proxy,
// two object hosts (disks d0-d3 and m0) and its client.
var fixTelemetryHosts = []string{"proxy1", "stor1", "stor2", "client1"}

// fixTelemetry reads testdata/telemetry's samples with every load (CPU,
// iowait, disk utilisation, services' CPU) scaled by scale, percents
// capped at 100.
func fixTelemetry(t *testing.T, scale float64) []telemetry.HostSamples {
	t.Helper()
	pct := func(x float64) float64 { return min(100, x*scale) }
	var out []telemetry.HostSamples
	for _, h := range fixTelemetryHosts {
		samples, err := telemetry.ReadSamples(filepath.Join("testdata", "telemetry", h+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		for i := range samples {
			s := &samples[i]
			s.CPU.Busy, s.CPU.IOWait = pct(s.CPU.Busy), pct(s.CPU.IOWait)
			for k, d := range s.Disks {
				d.Util = pct(d.Util)
				s.Disks[k] = d
			}
			for k, p := range s.Procs {
				p.CPU *= scale
				s.Procs[k] = p
			}
		}
		out = append(out, telemetry.HostSamples{Host: h, Samples: samples})
	}
	return out
}

// writeTelemetry writes the hosts' samples into cell id's directory as
// the sweep keeps them and returns their summary, a 64 MB working set
// checked against the object hosts' page cache.
func writeTelemetry(t *testing.T, run *rundir.Run, id string, hosts []telemetry.HostSamples) *telemetry.CellSummary {
	t.Helper()
	for _, h := range hosts {
		p, err := run.TelemetryFile(id, h.Host)
		if err != nil {
			t.Fatal(err)
		}
		mkdir(t, filepath.Dir(p))
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		enc := json.NewEncoder(f)
		for _, s := range h.Samples {
			if err := enc.Encode(s); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	sum := telemetry.Summarise(telemetry.CellInput{Hosts: hosts, Interval: time.Second,
		ObjectHosts: []string{"stor1", "stor2"}, WorkingSetMB: 64})
	return &sum
}
