package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/results"
	"benchbed/results/rundir"
	"benchbed/results/telemetry"
)

// labUname is uname -a in each of the lab's hosts: network namespaces of
// one machine, whose host name they share.
const labUname = "Linux benchlab 6.1.0-28-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.119-1 (2024-11-22) x86_64 GNU/Linux"

// writeEnvs writes env/<host>.txt of each host with uname line kernel
// (the host's own name in it when kernel is "").
func writeEnvs(t *testing.T, dir, kernel string, hosts ...string) {
	t.Helper()
	for _, h := range hosts {
		k := kernel
		if k == "" {
			k = "Linux " + h + " 6.1.0-28-amd64 #1 SMP x86_64 GNU/Linux"
		}
		env := "\n## kernel\n" + k + "\n\n## cpu\n8\n\n## memory\nMemTotal:       24683784 kB\nSwapTotal:       1048572 kB\n" +
			"HugePages_Total:       0\n\n## swift\nswift 2.30.1\n"
		if err := os.WriteFile(filepath.Join(dir, rundir.EnvDir, h+".txt"), []byte(env), 0o640); err != nil {
			t.Fatal(err)
		}
	}
}

// loadLab loads a lab run of two cells with telemetry whose hosts have
// environments with uname line kernel.
func loadLab(t *testing.T, kernel string) *Report {
	t.Helper()
	dir, _ := makeRun(t, labFixture()[:2], true)
	writeEnvs(t, dir, kernel, fixTelemetryHosts...)
	r, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The lab's hosts, one kernel, have their CPU said once per cell, under
// all their names, one row in the hosts' table, memory in GiB, and the
// run's caveats say so first.
func TestOneKernelShownOnce(t *testing.T) {
	r := loadLab(t, labUname)
	var b bytes.Buffer
	if err := r.WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	all := "proxy1, stor1, stor2, client1"
	inOrder(t, out, "CAVEAT: hosts sharing a kernel: "+all+": one kernel (same uname -a, CPUs and memory)",
		"Hosts", "│ "+all+" │", "23.5 GiB, swap 1.0 GiB", "Telemetry of 001-normal", all+" CPU busy %", all+" iowait %",
		"Telemetry of 002-threads", all+" CPU busy %")
	for _, h := range fixTelemetryHosts {
		if strings.Contains(out, "│ "+h+" CPU busy %") || strings.Contains(out, "│ "+h+" iowait") || strings.Contains(out, "│ "+h+" │") {
			t.Errorf("host %s has a row of its own although it shares its kernel:\n%s", h, out)
		}
	}
	if n, m := strings.Count(out, "CPU busy %"), strings.Count(out, all+" CPU busy %"); n != m || n == 0 {
		t.Errorf("%d CPU rows, %d of them of the one kernel, want all:\n%s", n, m, out)
	}
	hosts, err := r.Run.ReadTelemetry(&r.Run.Summary.Cells[0])
	if err != nil {
		t.Fatal(err)
	}
	if got := oneKernelOnce(r.kernelGroups(), hosts); len(got) != 1 || got[0].Host != all || len(got[0].Samples) == 0 {
		t.Errorf("the CPU plot's hosts: %v, want one curve named %q", got, all)
	}
}

// Hosts on machines of their own (their own names in uname -a) are each
// shown; so are an old run's without environments or telemetry.
func TestKernelsOfTheirOwn(t *testing.T) {
	r := loadLab(t, "")
	if g := r.kernelGroups(); len(g) != 0 {
		t.Errorf("hosts with their own uname -a grouped: %v", g)
	}
	if n := len(r.envTable().Rows); n != 4 {
		t.Errorf("%d rows in the hosts' table, want 4", n)
	}
	old, _ := loadFixture(t, fixture, true)
	if g := old.kernelGroups(); len(g) != 0 {
		t.Errorf("a run without telemetry: %v", g)
	}
}

// Without environments, hosts whose CPU figures are identical in every
// cell share a kernel; a cell where they differ, or no sample, says not.
func TestKernelsByCPUSeries(t *testing.T) {
	busy := telemetry.Stat{Mean: 40, P95: 60, Max: 70}
	host := func(name string, b telemetry.Stat, n int) telemetry.HostSummary {
		return telemetry.HostSummary{Host: name, Samples: n, CPUBusy: b, Load1: telemetry.Stat{Mean: 2}}
	}
	cell := func(hs ...telemetry.HostSummary) results.Cell {
		return results.Cell{Telemetry: &telemetry.CellSummary{Hosts: hs}}
	}
	r := &Report{Run: &rundir.RunResults{Summary: results.Summary{Cells: []results.Cell{
		cell(host("a", busy, 10), host("b", busy, 10), host("c", telemetry.Stat{Mean: 41, P95: 60, Max: 70}, 10)),
		cell(host("a", busy, 10), host("b", busy, 10), host("c", busy, 10)),
		cell(host("d", busy, 0), host("e", busy, 0)),
	}}}}
	g := r.kernelGroups()
	if len(g) != 1 || g[0].Label() != "a, b" || g[0].By != "identical CPU series" {
		t.Errorf("groups %v, want a, b by identical CPU series (c differs in one cell, d and e have no sample)", g)
	}
}

func TestMemoryInGiB(t *testing.T) {
	for in, want := range map[string]string{
		"MemTotal:       24683784 kB\nSwapTotal:             0 kB\n": "23.5 GiB, swap 0.0 GiB",
		"MemTotal: 65536000 kB\n":                                    "62.5 GiB",
		"HugePages_Total: 0\n":                                       "HugePages_Total: 0",
		"":                                                           "",
	} {
		if got := memText(in); got != want {
			t.Errorf("memText(%q) = %q, want %q", in, got, want)
		}
	}
}

// caveatsOf sets each cell's disks and hosts' CPU and returns the
// report's host caveats.
func caveatsOf(t *testing.T, r *Report, clientBusy float64, devs map[string]string) []string {
	t.Helper()
	for i := range r.Run.Summary.Cells {
		tl := &telemetry.CellSummary{}
		for _, h := range fixTelemetryHosts {
			busy := 30.0
			if h == "client1" {
				busy = clientBusy
			}
			tl.Hosts = append(tl.Hosts, telemetry.HostSummary{Host: h, Samples: 10, CPUBusy: telemetry.Stat{Mean: busy, P95: busy, Max: busy}})
		}
		for _, hd := range []string{"stor1:d0", "stor1:d1", "stor2:d0", "stor2:d1"} {
			h, d, _ := strings.Cut(hd, ":")
			tl.Disks = append(tl.Disks, telemetry.DiskSummary{Host: h, Disk: d, Dev: devs[hd]})
		}
		r.Run.Summary.Cells[i].Telemetry = tl
	}
	return r.hostCaveats()
}

// On one kernel, testbed disks on one device and a saturated load host
// are each said once for the run; on machines of their own, disks on
// devices of their own are no caveat, and a busy client is told to add
// clients.
func TestDiskAndClientCaveats(t *testing.T) {
	one := map[string]string{"stor1:d0": "vda", "stor1:d1": "vda", "stor2:d0": "vda", "stor2:d1": "vda"}
	cs := strings.Join(caveatsOf(t, loadLab(t, labUname), 95, one), "\n")
	for _, w := range []string{"disks sharing a device: 4 disks (stor1: d0, d1; stor2: d0, d1) are on one device, vda",
		"load hosts' CPU saturated (p95 at or over 80%): client1 in 2 of 2 cells", "competed for one machine's CPU"} {
		if !strings.Contains(cs, w) {
			t.Errorf("one kernel: caveats lack %q:\n%s", w, cs)
		}
	}
	own := map[string]string{"stor1:d0": "sdb", "stor1:d1": "sdc", "stor2:d0": "sdb", "stor2:d1": "sdc"}
	cs = strings.Join(caveatsOf(t, loadLab(t, ""), 95, own), "\n")
	if strings.Contains(cs, "disks sharing") || !strings.Contains(cs, "add client hosts or agents_per_client") {
		t.Errorf("own machines: %s", cs)
	}
	if cs := caveatsOf(t, loadLab(t, ""), 50, own); len(cs) != 0 {
		t.Errorf("own machines, client at 50%%: %q", cs)
	}
	shared := map[string]string{"stor1:d0": "sdb", "stor1:d1": "sdb", "stor2:d0": "sdb", "stor2:d1": "sdc"}
	cs = strings.Join(caveatsOf(t, loadLab(t, ""), 50, shared), "\n")
	if !strings.Contains(cs, "2 disks (stor1: d0, d1) are on one device, sdb") || strings.Contains(cs, "stor2: d0") {
		t.Errorf("own machines, two of stor1's disks on sdb: %s", cs)
	}
}
