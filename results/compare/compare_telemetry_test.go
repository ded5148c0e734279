package compare

import (
	"bytes"
	"strings"
	"testing"

	"benchbed/results/telemetry"
)

// fixTel is a cell's telemetry: proxy1's CPU at cpu percent, stor1's two
// disks with busy (the busiest) and busy/2, the object servers at obj
// percent of a core.
func fixTel(cpu, busy, obj float64) *telemetry.CellSummary {
	st := func(m float64) telemetry.Stat { return telemetry.Stat{Mean: m, P95: m + 5, Max: m + 7} }
	return &telemetry.CellSummary{IntervalS: 1, RunSeconds: 10,
		Hosts: []telemetry.HostSummary{{Host: "proxy1", Samples: 10, CPUBusy: st(cpu)}, {Host: "stor1", Samples: 10, CPUBusy: st(cpu / 2)}},
		Disks: []telemetry.DiskSummary{{Host: "stor1", Disk: "d0", Util: telemetry.MeanMax{Mean: busy / 2}},
			{Host: "stor1", Disk: "d1", Util: telemetry.MeanMax{Mean: busy}}},
		Busiest:    "stor1:d1",
		Services:   []telemetry.ServiceSummary{{Host: "stor1", Service: "object", Processes: 5, CPU: st(obj)}},
		Bottleneck: "proxy1 CPU busy",
	}
}

func TestCompareTelemetryDeltas(t *testing.T) {
	a1, a2, b1, b2 := fixNormal(1, 100), fixNormal(2, 110), fixSPP1(1, 150), fixSPP1(2, 160)
	a1.tel, a2.tel = fixTel(80, 40, 50), fixTel(90, 50, 60)
	b1.tel, b2.tel = fixTel(60, 70, 120), fixTel(70, 80, 130)
	b2.tel.Busiest, b2.tel.Disks[0].Util.Mean, b2.tel.Disks[1].Util.Mean = "stor1:d0", 80, 40
	run := fixRun(t, "r", "testbed \"lab\" {}\n", false, a1, a2, b1, b2)
	c, err := Compare(mustSide(t, run+":normal"), mustSide(t, run+":servers_per_port=1"), CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]TelemetryDelta{}
	for _, d := range c.Pairs[0].Telemetry {
		got[d.Name] = d
	}
	for name, want := range map[string][2]float64{
		"proxy1 CPU busy % (mean)":            {(80 + 90) / 2, (60 + 70) / 2},
		"proxy1 CPU busy % (p95)":             {(85 + 95) / 2, (65 + 75) / 2},
		"stor1 CPU busy % (mean)":             {(40.0 + 45) / 2, (30.0 + 35) / 2},
		busiestName:                           {(40 + 50) / 2, (70 + 80) / 2},
		"stor1 object CPU % of a core (mean)": {(50 + 60) / 2, (120 + 130) / 2},
	} {
		d, ok := got[name]
		if !ok || d.A != want[0] || d.B != want[1] || d.Delta != want[1]-want[0] {
			t.Errorf("%s: got %+v, want A %v B %v", name, d, want[0], want[1])
		}
	}
	if n := got[busiestName].Note; n != "A stor1:d1; B stor1:d1, stor1:d0" {
		t.Errorf("busiest disk's note %q", n)
	}
	var out bytes.Buffer
	if err := WriteComparison(&out, c, "text"); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, w := range []string{"telemetry (run phase)", "proxy1 CPU busy % (mean)", "85.0", "65.0", "-20.0",
		busiestName, "45.0", "75.0", "+30.0", "note: bottleneck: A proxy1 CPU busy; B proxy1 CPU busy"} {
		if !strings.Contains(text, w) {
			t.Errorf("comparison does not say %q:\n%s", w, text)
		}
	}
	if i, j := strings.Index(text, "req/s"), strings.Index(text, "telemetry (run phase)"); i < 0 || j < i {
		t.Errorf("the telemetry table is not after the req/s table:\n%s", text)
	}
	out.Reset()
	if err := WriteComparison(&out, c, "markdown"); err != nil {
		t.Fatal(err)
	}
	if md := out.String(); !strings.Contains(md, "|\n\n| telemetry (run phase)") || !strings.Contains(md, "| "+busiestName) {
		t.Errorf("markdown: no telemetry table after the metrics' table:\n%s", md)
	}
}

func TestCompareTelemetryOneSide(t *testing.T) {
	a, b := fixNormal(1, 100), fixSPP1(1, 150)
	a.tel = fixTel(80, 40, 50)
	run := fixRun(t, "r", "testbed \"lab\" {}\n", false, a, b)
	c, err := Compare(mustSide(t, run+":1"), mustSide(t, run+":2"), CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := c.Pairs[0]
	if len(p.Telemetry) != 0 || !strings.Contains(strings.Join(p.Notes, "\n"), "telemetry: only one side has it (B has none)") {
		t.Errorf("telemetry %v, notes %q", p.Telemetry, p.Notes)
	}
}
