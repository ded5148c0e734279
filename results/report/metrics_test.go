package report

import (
	"bytes"
	"strings"
	"testing"
)

func TestReportOfCommandWorkloads(t *testing.T) {
	r, _ := loadFixture(t, []fixCell{
		{id: "001-warm-64K_get-r1", variant: "warm", repeat: 1, status: "ok", noStreams: true, mbps: []float64{600, 612.5}},
		{id: "002-cold-64K_get-r1", variant: "cold", repeat: 1, status: "failed", err: "before: drop caches failed", noStreams: true, mbps: []float64{1}},
	}, true)
	var b bytes.Buffer
	if err := r.WriteText(&b, true); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	inOrder(t, out, "Command workloads", "64K_get MB/s", "warm", "1212.5", "cold", "failed (0/1)",
		"Command workloads' figures per cell", "001-warm-64K_get-r1", "throughput", "1212.5", "MB/s", "sum", "600 612.5",
		"002-cold-64K_get-r1", "failed: 1")
	if strings.Contains(out, "as ssbench reports it") || strings.Contains(out, "Per operation") {
		t.Errorf("a run of command workloads only has Swift tables:\n%s", out)
	}
}
