package telemetry

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

func TestParseStatDelta(t *testing.T) {
	a, err := ParseStat(readFixture(t, 1, "stat"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseStat(readFixture(t, 2, "stat"))
	if err != nil {
		t.Fatal(err)
	}
	_, t1 := snap(t, 1)
	_, t2 := snap(t, 2)
	// The fixture machine has as many cpuN lines as cores; 100 ticks a second each.
	cores := bytes.Count(readFixture(t, 1, "stat"), []byte("\ncpu"))
	want := t2.Sub(t1).Seconds() * 100 * float64(cores)
	if got := float64(b.total() - a.total()); !near(got, want, want*0.1) {
		t.Errorf("ticks between the snapshots: %v, want about %v (%d cores)", got, want, cores)
	}
	c := a.Percent(b)
	if c.Busy <= 0 || c.Busy > 100 {
		t.Errorf("busy %v%%: the capture burned CPU, want in (0, 100]", c.Busy)
	}
	if sum := c.User + c.System + c.Steal; !near(sum, c.Busy, 0.01) {
		t.Errorf("user+system+steal = %v, busy %v: busy is all but idle and iowait", sum, c.Busy)
	}
	if got := b.Percent(a); got != (CPU{}) {
		t.Errorf("backwards counters give %+v, want zeros", got)
	}
}

func TestParseStatBad(t *testing.T) {
	for _, in := range []string{"", "intr 1 2 3", "cpu 1 2 3", "cpu 1 2 3 x 5 6 7 8"} {
		if _, err := ParseStat([]byte(in)); err == nil {
			t.Errorf("ParseStat(%q): no error", in)
		}
	}
}

func TestParseLoadavgMeminfo(t *testing.T) {
	raw := readFixture(t, 1, "loadavg")
	l, err := ParseLoadavg(raw)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := strconv.ParseFloat(strings.Fields(string(raw))[0], 64); l != want {
		t.Errorf("load1 %v, want %v", l, want)
	}
	m, err := ParseMeminfo(readFixture(t, 1, "meminfo"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Total <= 0 || m.Used <= 0 || m.Used >= m.Total || m.Cache <= 0 || m.Cache >= m.Total {
		t.Errorf("meminfo %+v: want 0 < used, cache < total", m)
	}
	kb := func(name string) float64 {
		for _, line := range strings.Split(string(readFixture(t, 1, "meminfo")), "\n") {
			if f := strings.Fields(line); len(f) > 1 && f[0] == name+":" {
				v, _ := strconv.ParseFloat(f[1], 64)
				return v
			}
		}
		t.Fatalf("no %s in the fixture", name)
		return 0
	}
	if !near(m.Total, kb("MemTotal")/1024, 0.01) || !near(m.Cache, (kb("Cached")+kb("Buffers"))/1024, 0.01) {
		t.Errorf("meminfo %+v does not match MemTotal %v kB, Cached+Buffers %v kB", m, kb("MemTotal"), kb("Cached")+kb("Buffers"))
	}
	if _, err := ParseMeminfo([]byte("MemFree: 1 kB\n")); err == nil {
		t.Error("meminfo without MemTotal: no error")
	}
}

func TestParseNetDev(t *testing.T) {
	a, err := ParseNetDev(readFixture(t, 1, "net/dev"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseNetDev(readFixture(t, 2, "net/dev"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := a["lo"]; ok {
		t.Error("loopback kept")
	}
	if len(a) == 0 {
		t.Fatal("no interface")
	}
	for name, nb := range b {
		if nb.Rx < a[name].Rx || nb.Tx < a[name].Tx {
			t.Errorf("%s: counters went back: %+v then %+v", name, a[name], nb)
		}
	}
	r := netRates(a, b, 1)
	if len(r) != len(b) {
		t.Errorf("rates of %d interfaces, want %d", len(r), len(b))
	}
	if _, err := ParseNetDev([]byte("eth0: 1 2 3\n")); err == nil {
		t.Error("short line: no error")
	}
}

func TestParseDiskstatsDelta(t *testing.T) {
	all, err := ParseDiskstats(readFixture(t, 1, "diskstats"), nil)
	if err != nil {
		t.Fatal(err)
	}
	// The capture wrote and synced 8 MiB on the root file system's device.
	fs, _ := snap(t, 1)
	root, err := fs.ResolveDisk("/")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := all[root]; !ok {
		t.Fatalf("root device %s not in diskstats (%d devices)", root, len(all))
	}
	want := map[string]bool{root: true}
	a, _ := ParseDiskstats(readFixture(t, 1, "diskstats"), want)
	b, _ := ParseDiskstats(readFixture(t, 2, "diskstats"), want)
	if len(a) != 1 {
		t.Errorf("filtered to %d devices, want 1", len(a))
	}
	_, t1 := snap(t, 1)
	_, t2 := snap(t, 2)
	dt := t2.Sub(t1).Seconds()
	d := a[root].Rates(b[root], dt)
	if d.Writes <= 0 || d.WriteMB*dt < 8 {
		t.Errorf("%s: %+v over %.2fs: want the 8 MiB written", root, d, dt)
	}
	if d.Util <= 0 || d.Util > 100 || d.Await <= 0 {
		t.Errorf("%s: util %v%%, await %v ms: want both above 0, util at most 100", root, d.Util, d.Await)
	}
}
