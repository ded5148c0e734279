package telemetry

import (
	"strings"
	"testing"
	"time"
)

// run returns n samples of phase at one a second, each made by f(i).
func run(phase string, n int, f func(i int, s *Sample)) []Sample {
	base := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	out := make([]Sample, n)
	for i := range out {
		out[i] = Sample{T: base.Add(time.Duration(i) * time.Second), Phase: phase}
		f(i, &out[i])
	}
	return out
}

func TestSummarise(t *testing.T) {
	warm := run(PhaseWarmup, 3, func(_ int, s *Sample) { s.CPU.Busy = 100 }) // not counted
	stor := append(warm, run(PhaseRun, 20, func(i int, s *Sample) {
		s.CPU = CPU{Busy: float64(i + 1), IOWait: 2}
		s.Mem = Mem{Total: 1000, Used: 200, Cache: 500}
		s.Net = map[string]NetRate{"eth0": {Rx: 1, Tx: 2}, "eth1": {Rx: 3}}
		s.Disks = map[string]Disk{"d0": {Dev: "loop0", Util: 10, Reads: 5, Writes: 5, Await: 1},
			"d1": {Dev: "loop1", Util: float64(50 + i), Await: float64(i)}}
		s.Procs = map[string]Procs{"object": {CPU: 30, RSS: float64(100 + i), N: 3 + i%2}}
		s.Self = Self{CPU: 0.4}
	})...)
	proxy := run(PhaseRun, 20, func(i int, s *Sample) { s.CPU.Busy = 90; s.Mem = Mem{Total: 1000, Used: 900} })
	sum := Summarise(CellInput{Hosts: []HostSamples{{"proxy1", proxy}, {"stor1", stor}},
		Interval: time.Second, ObjectHosts: []string{"stor1"}, WorkingSetMB: 64})
	h := sum.Hosts[1]
	if h.Host != "stor1" || h.Samples != 20 || sum.RunSeconds != 20 || sum.IntervalS != 1 {
		t.Errorf("host %+v, run %vs", h, sum.RunSeconds)
	}
	if h.CPUBusy != (Stat{Mean: 10.5, P95: 19, Max: 20}) || h.NetRx != (MeanMax{4, 4}) || h.AgentCPU != 0.4 {
		t.Errorf("stor1 busy %+v, rx %+v, agent %v", h.CPUBusy, h.NetRx, h.AgentCPU)
	}
	if len(sum.Disks) != 2 || sum.Disks[1].Util != (MeanMax{59.5, 69}) || sum.Disks[0].IOPS != (MeanMax{10, 10}) {
		t.Errorf("disks %+v", sum.Disks)
	}
	if sum.Busiest != "stor1:d1" {
		t.Errorf("busiest %q", sum.Busiest)
	}
	if s := sum.Services[0]; s.Processes != 4 || s.CPU.Mean != 30 || s.RSS.Max != 119 || s.Host != "stor1" {
		t.Errorf("service %+v", s)
	}
	if sum.Bottleneck != "proxy1 CPU 90% busy (p95)" {
		t.Errorf("bottleneck %q", sum.Bottleneck)
	}
	pc := sum.PageCache
	if pc == nil || !pc.Fits || pc.CacheMB != 800 || !strings.Contains(pc.Warning, "drop_caches = true") {
		t.Errorf("page cache %+v", pc)
	}
}

func TestBottleneckDiskAndCalm(t *testing.T) {
	hot := []candidate{{20, "stor1 CPU", "busy"}, {3, "stor1 iowait", ""}, {95, "stor1:d1 (loop1)", "utilised"}}
	if got := bottleneck(hot); got != "stor1:d1 (loop1) 95% utilised (p95)" {
		t.Errorf("got %q", got)
	}
	if got := bottleneck(hot[:2]); !strings.Contains(got, "nothing near saturation") {
		t.Errorf("calm cell: %q", got)
	}
	if got := Summarise(CellInput{Hosts: []HostSamples{{"a", nil}}, Interval: time.Second}); got.Bottleneck != "" || got.Hosts[0].Samples != 0 {
		t.Errorf("no samples: %+v", got)
	}
}

func TestCheckPageCache(t *testing.T) {
	if pc := CheckPageCache(9000, 8000, false); pc.Fits || pc.Warning != "" {
		t.Errorf("working set above the cache: %+v", pc)
	}
	if pc := CheckPageCache(64, 8000, true); !pc.Fits || !pc.Dropped || !strings.Contains(pc.Warning, "dropped") {
		t.Errorf("dropped caches: %+v", pc)
	}
}

func TestStatP95(t *testing.T) {
	for _, c := range []struct {
		in   series
		want Stat
	}{
		{nil, Stat{}},
		{series{5}, Stat{5, 5, 5}},
		{series{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, Stat{5.5, 10, 10}},
		{series{0.04, 0.06}, Stat{0.1, 0.1, 0.1}},
	} {
		if got := c.in.stat(); got != c.want {
			t.Errorf("%v: %+v, want %+v", c.in, got, c.want)
		}
	}
}
