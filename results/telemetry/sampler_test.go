package telemetry

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

var fixtureServices = []ServiceSpec{
	{Name: "object", Match: []string{"swift-object-server"}},
	{Name: "memcached", Match: []string{"memcached"}},
	{Name: "proxy", Match: []string{"swift-proxy-server"}},
}

// fixtureSample samples between the two fixture snapshots.
func fixtureSample(t *testing.T) (Sample, *Sampler) {
	t.Helper()
	fs1, t1 := snap(t, 1)
	fs2, t2 := snap(t, 2)
	s, warns, err := NewSampler(fs1, Config{Host: "stor1", Services: fixtureServices,
		Disks: []DiskSpec{{Name: "d1", Path: "/"}, {Name: "gone", Path: "/proc"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 1 || len(s.Disks()) != 1 {
		t.Errorf("warnings %q, disks %v: want one warning for the disk on /proc", warns, s.Disks())
	}
	s.prev.t, s.fs, s.procs.fs, s.now = t1, fs2, fs2, func() time.Time { return t2 }
	s.SetPhase(PhaseRun)
	smp, err := s.Sample()
	if err != nil {
		t.Fatal(err)
	}
	return smp, s
}

func TestSamplerFixture(t *testing.T) {
	smp, s := fixtureSample(t)
	if smp.Phase != PhaseRun || smp.Host != "stor1" {
		t.Errorf("phase %q host %q", smp.Phase, smp.Host)
	}
	// The capture ran a parent and two forked children, all burning CPU.
	if p := smp.Procs["object"]; p.N != 3 || p.CPU <= 0 || p.RSS <= 0 {
		t.Errorf("object: %+v, want 3 processes with CPU and RSS", p)
	}
	if p := smp.Procs["memcached"]; p.N != 1 || p.CPU != 0 {
		t.Errorf("memcached (a sleep): %+v, want 1 idle process", p)
	}
	if p, ok := smp.Procs["proxy"]; !ok || p.N != 0 {
		t.Errorf("proxy: %+v, %v: want present with no process", p, ok)
	}
	d, ok := smp.Disks["d1"]
	if !ok || d.Dev != s.Disks()["d1"] || d.Writes <= 0 || d.Util <= 0 {
		t.Errorf("d1: %+v: want the root device's writes", d)
	}
	if smp.CPU.Busy <= 0 || smp.Mem.Total <= 0 || len(smp.Net) == 0 || smp.Self.RSS <= 0 {
		t.Errorf("sample %+v: want CPU, memory, network and the agent's RSS", smp)
	}
	if got := s.procs.counts(); got["object"] != 3 || got["memcached"] != 1 || got["proxy"] != 0 {
		t.Errorf("counts %v", got)
	}
}

func TestParsePidStatName(t *testing.T) {
	line := "42 (a) b (c)) S 7 42 42 0 -1 4194304 1 0 0 0 30 12 0 0 20 0 1 0 999 1 1\n"
	st, err := ParsePidStat([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	if st != (PidStat{PPid: 7, Ticks: 42, Start: 999}) {
		t.Errorf("%+v", st)
	}
	if _, err := ParsePidStat([]byte("42 (x) S 1 2")); err == nil {
		t.Error("short stat: no error")
	}
}

// TestSamplerHost samples this machine: the test binary is a service of
// one process whose CPU shows, and the agent's own CPU is measured. The
// test burns a fixed amount of CPU time (however long that takes on a
// loaded machine) and the sampler's clock is a fake one that says the
// interval lasted one second: the percentages then hold at any speed, the
// burn's share at least, no more than what the process used in all.
func TestSamplerHost(t *testing.T) {
	self := filepath.Base(os.Args[0])
	cpu0 := selfCPU(t)
	s, warns, err := NewSampler(HostFS, Config{Host: "here",
		Services: []ServiceSpec{{Name: "test", Match: []string{self}}},
		Disks:    []DiskSpec{{Name: "tmp", Path: t.TempDir()}}})
	if err != nil {
		t.Fatal(err)
	}
	t0 := s.prev.t
	s.now = func() time.Time { return t0.Add(time.Second) }
	const burn = 300 * time.Millisecond
	for b := selfCPU(t); selfCPU(t)-b < burn; { // burn CPU for the process and the agent
	}
	smp, err := s.Sample()
	if err != nil {
		t.Fatal(err)
	}
	// In percent of the fake second: at least the burn, at most all the
	// process used from before the sampler's first reading to after its
	// second; /proc's CPU times count in ticks of 10 ms (1%), which the
	// kernel rounds: 2% either way.
	lo, hi := 100*burn.Seconds(), 100*(selfCPU(t)-cpu0).Seconds()
	t.Logf("burnt %v of CPU, %.1f%% of the fake second; the process used %.1f%%: sampled %v%%, self %v%%", burn, lo, hi, smp.Procs["test"].CPU, smp.Self.CPU)
	if p := smp.Procs["test"]; p.N != 1 || p.CPU < lo-2 || p.CPU > hi+2 {
		t.Errorf("the test binary %s: %+v, want 1 process with %.1f%% to %.1f%% CPU", self, p, lo, hi)
	}
	if smp.Self.CPU < lo-0.01 || smp.Self.CPU > hi+0.01 {
		t.Errorf("self CPU %v%%, want %.1f%% to %.1f%% while burning CPU", smp.Self.CPU, lo, hi)
	}
	if len(warns) == 0 && smp.Disks["tmp"].Dev == "" {
		t.Errorf("disk tmp resolved without a device: %+v", smp.Disks)
	}
}

// selfCPU is the test process's CPU time (user and system) so far.
func selfCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
