package compare

import (
	"strings"
	"testing"
)

func TestCompareCommandWorkloadRepeats(t *testing.T) {
	var a, b []fixCell
	for r := 1; r <= 4; r++ {
		a = append(a, fixCell{variant: "normal", repeat: r, mbps: 100 + float64(r), workers: "2", spp: "0", ports: 6200})
		b = append(b, fixCell{variant: "normal", repeat: r, mbps: 150 + float64(r), workers: "2", spp: "0", ports: 6200})
	}
	c, out := mustCompare(t, fixRun(t, "runA", fixTestbed, false, a...), fixRun(t, "runB", fixTestbed, false, b...))
	p := c.Pairs[0]
	m := metric(t, p, OpCommand, "throughput (MB/s)")
	if p.Samples != SamplesRepeats || m.A != 102.5 || m.B != 152.5 || m.Test == nil || !m.Test.Significant {
		t.Fatalf("samples %s, throughput %+v test %+v", p.Samples, m, m.Test)
	}
	if len(p.Ops) != 1 || tableRow(out, "total", MetricReqPerS) != nil || !strings.Contains(out, "p=0.029 n=4") {
		t.Errorf("a command workload's comparison has Swift figures or no test:\n%s", out)
	}
	c, out = mustCompare(t, fixRun(t, "runC", fixTestbed, false, a[0]), fixRun(t, "runD", fixTestbed, false, b[0]))
	if p := c.Pairs[0]; p.Samples != SamplesNone || metric(t, p, OpCommand, "throughput (MB/s)").Test != nil || !strings.Contains(out, "+49.5%") {
		t.Errorf("one repeat a side: samples %s, no test and the delta wanted:\n%s", p.Samples, out)
	}
}
