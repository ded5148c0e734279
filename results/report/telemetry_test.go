package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"benchbed/results/rundir"
	"benchbed/results/telemetry"
)

// telFixture is two cells with telemetry (the second under more load)
// and one without.
func telFixture() []fixCell {
	f := labFixture()[:3]
	f[0].telemetry, f[1].telemetry, f[2].telemetry = 0.8, 1.1, 0
	return f
}

func TestTelemetryText(t *testing.T) {
	r, sum := loadFixture(t, telFixture(), true)
	var b bytes.Buffer
	if err := r.WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, c := range sum.Cells[:2] {
		tel := c.Telemetry
		h, d, s := tel.Hosts[0], tel.Disks[0], tel.Services[0]
		for _, d2 := range tel.Disks {
			if d2.Host+":"+d2.Disk == tel.Busiest {
				d = d2
			}
		}
		inOrder(t, out, "Telemetry per cell (run phase)", c.ID, tel.Bottleneck, tel.Busiest, "FITS: reads from memory",
			sum.Cells[1].ID)
		inOrder(t, out, "CAVEAT: page cache: in 2 of 3 cells the GETs' working set", "Telemetry of "+c.ID+" (run phase: "+f1(tel.RunSeconds)+" s",
			"bottleneck: "+tel.Bottleneck, h.Host+" CPU busy %", f1(h.CPUBusy.Mean), f1(h.CPUBusy.P95), f1(h.CPUBusy.Max), "agent "+f1(h.AgentCPU)+" % of a core",
			tel.Busiest+" util %", f1(d.Util.Mean), f1(d.Util.Max), "BUSIEST; "+d.Dev+"; await "+f1(d.Await.Mean),
			s.Host+" "+s.Service+" CPU % of a core", f1(s.CPU.Mean))
	}
	st := sum.Cells[0].Telemetry.Statsd
	if len(st) == 0 {
		t.Fatal("the fixture's summary has no statsd timers")
	}
	for _, m := range st {
		inOrder(t, out, "Telemetry of "+sum.Cells[0].ID, "statsd "+m.Metric+" ms", f1(m.Mean), f1(m.Max),
			strconv.Itoa(m.N)+" timings, the service's own,", m.Host)
	}
	if strings.Contains(out, "Telemetry of "+sum.Cells[2].ID) {
		t.Errorf("a cell without telemetry has a telemetry section:\n%s", out)
	}
	if strings.Contains(out, "disks on one device") {
		t.Errorf("disks on devices of their own are said to share one:\n%s", out)
	}
	if strings.Contains(out, "no sample in the run phase") {
		t.Errorf("a host with samples is said to have none:\n%s", out)
	}
	if n := strings.Count(out, "the GETs' working set"); n != 1 {
		t.Errorf("the page cache's caveat said %d times, want once, at the top:\n%s", n, out)
	}
	if strings.Count(out, "BUSIEST") != 2 {
		t.Errorf("want one busiest disk per cell with telemetry:\n%s", out)
	}
}

func TestTelemetryHTML(t *testing.T) {
	r, sum := loadFixture(t, telFixture(), true)
	out := t.TempDir()
	if _, err := r.WriteDir(out); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	c := sum.Cells[1]
	inOrder(t, string(page), `<li><b>page cache</b>: in 2 of 3 cells the GETs&#39; working set`, "<h2>Plots</h2>", `id="req_per_s"`,
		"Telemetry of the hosts (run phase)", "Telemetry of "+sum.Cells[0].ID, "Telemetry of "+c.ID,
		"Bottleneck: <b>"+c.Telemetry.Bottleneck, "<td>"+c.Telemetry.Busiest+" util %</td>",
		`id="telemetry_cpu_`+c.ID+`"`, "proxy1", `id="telemetry_disks_`+c.ID+`"`, "stor2:m0", "Journal")
	if n := strings.Count(string(page), "the GETs&#39; working set"); n != 1 {
		t.Errorf("the page cache's caveat said %d times, want once, at the top", n)
	}
	for _, name := range []string{"telemetry_cpu_" + c.ID + ".png", "telemetry_disks_" + c.ID + ".svg"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "telemetry_cpu_"+sum.Cells[2].ID+".png")); err == nil {
		t.Error("a cell without telemetry has a telemetry plot")
	}
}

// A summary with telemetry but no samples is a notice, and so are samples
// an agent dropped; a broken sample line is an error naming its file and
// sample.
func TestTelemetryMissingAndBroken(t *testing.T) {
	r, sum := loadFixture(t, telFixture(), true)
	dir := r.Run.CellDir(&sum.Cells[0])
	if err := os.RemoveAll(filepath.Join(dir, rundir.TelemetryDir)); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Figures(); err != nil {
		t.Fatal(err)
	}
	if len(r.Notices) != 1 || !strings.Contains(r.Notices[0], sum.Cells[0].ID+": telemetry summarised but no samples") {
		t.Errorf("notices %q", r.Notices)
	}
	p := filepath.Join(r.Run.CellDir(&sum.Cells[1]), rundir.TelemetryDir, "stor1.jsonl")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	lines[4] = strings.Replace(lines[4], `"phase"`, `"dropped":2,"phase"`, 1)
	if err := os.WriteFile(p, []byte(strings.Join(lines, "")), 0o640); err != nil {
		t.Fatal(err)
	}
	r.Notices = nil
	if _, err := r.Figures(); err != nil {
		t.Fatal(err)
	}
	if want := sum.Cells[1].ID + ": stor1's telemetry agent dropped 2 sample(s)"; !strings.Contains(strings.Join(r.Notices, "\n"), want) {
		t.Errorf("notices %q, want %q", r.Notices, want)
	}
	lines[2] = "{not json\n"
	if err := os.WriteFile(p, []byte(strings.Join(lines, "")), 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Figures(); err == nil || !strings.Contains(err.Error(), p+": sample 3:") {
		t.Errorf("err = %v, want one naming %s and its sample 3", err, p)
	}
}

// A host whose file is empty has no curve; the others are still drawn.
func TestTelemetryEmptyHost(t *testing.T) {
	r, sum := loadFixture(t, telFixture()[:1], true)
	p := filepath.Join(r.Run.CellDir(&sum.Cells[0]), rundir.TelemetryDir, "client1.jsonl")
	if err := os.WriteFile(p, nil, 0o640); err != nil {
		t.Fatal(err)
	}
	figs, err := r.Figures()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figs {
		if f.Name == "telemetry_cpu_"+sum.Cells[0].ID {
			text := svgText(t, f.Name, f.SVG)
			if strings.Contains(text, "client1") || !strings.Contains(text, "proxy1") {
				t.Errorf("cpu plot's texts:\n%s", text)
			}
			return
		}
	}
	t.Errorf("no cpu plot among %d figures", len(figs))
}

func TestTelemetryMarkdown(t *testing.T) {
	r, sum := loadFixture(t, telFixture(), true)
	var b bytes.Buffer
	if err := r.WriteFormat(&b, FormatMarkdown); err != nil {
		t.Fatal(err)
	}
	tel := sum.Cells[0].Telemetry
	inOrder(t, b.String(), "## Telemetry per cell (run phase)", "| "+sum.Cells[0].ID, "## Telemetry of "+sum.Cells[0].ID,
		"\n- bottleneck: "+tel.Bottleneck+"\n\n|", "| "+tel.Busiest+" util %")
}

// A host the summary names without a run-phase sample says so instead of
// showing zeros.
func TestTelemetryHostWithoutSamples(t *testing.T) {
	r, sum := loadFixture(t, telFixture()[:1], true)
	c := &r.Run.Summary.Cells[0]
	c.Telemetry.Hosts = append(c.Telemetry.Hosts, telemetry.HostSummary{Host: "stor3"})
	var b bytes.Buffer
	if err := r.WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	inOrder(t, b.String(), "Telemetry of "+sum.Cells[0].ID, "stor3 CPU busy %", "no sample in the run phase")
	if strings.Contains(b.String(), "stor3 iowait") {
		t.Errorf("stor3 has an iowait row:\n%s", b.String())
	}
}

// Disks of one host on one block device (the lab's directories) are said
// to share it: their figures are the device's.
func TestTelemetrySharedDevice(t *testing.T) {
	r, sum := loadFixture(t, telFixture()[:1], true)
	disks := r.Run.Summary.Cells[0].Telemetry.Disks
	for i := range disks {
		if disks[i].Host == "stor1" {
			disks[i].Dev = "vda"
		}
	}
	var b bytes.Buffer
	if err := r.WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	inOrder(t, b.String(), "Telemetry of "+sum.Cells[0].ID, "disks on one device (their figures are the device's, the same for each): "+
		"stor1: d0, d1, d2, d3, m0 on vda\n", "resource")
	if strings.Contains(b.String(), "stor2: d0") {
		t.Errorf("stor2's disks, each on its own device, are said to share one:\n%s", b.String())
	}
	b.Reset()
	if err := r.WriteHTML(&b, nil); err != nil {
		t.Fatal(err)
	}
	inOrder(t, b.String(), "Telemetry of "+sum.Cells[0].ID, "<p>disks on one device", "stor1: d0, d1, d2, d3, m0 on vda</p>", "<table")
}
