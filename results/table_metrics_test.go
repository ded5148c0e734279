package results

import (
	"bytes"
	"strings"
	"testing"
)

func TestWriteMetricTable(t *testing.T) {
	cell := func(v, w string, x float64, status string) Cell {
		return Cell{Variant: v, Workload: w, Status: status, Metrics: map[string]Figure{"throughput": {Value: x, Unit: "MB/s"}}}
	}
	cells := []Cell{
		cell("warm", "wget", 100, StatusOK), cell("warm", "wget", 110, StatusOK), cell("warm", "wget", 0, "failed"),
		cell("warm", "curl", 5.5, StatusOK),
		cell("cold", "wget", 40, "failed"),
	}
	var b bytes.Buffer
	err := WriteMetricTable(&b, "seed004", cells, []MetricColumn{
		{Workload: "wget", Metric: "throughput", Unit: "MB/s"}, {Workload: "curl", Metric: "throughput", Unit: "MB/s"}})
	if err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"wget MB/s", "105.0 ± 7.071 (n=2/3)", "5.500", "failed (0/1)", MetricLegend} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	lines := strings.Split(out, "\n")
	if !strings.Contains(lines[2], "warm") || !strings.Contains(lines[3], "cold") || !strings.HasSuffix(strings.TrimSpace(lines[3]), "- |") {
		t.Errorf("rows not variant per row in order, cold's curl not '-':\n%s", out)
	}
	if xs, all := PerRepeat(cells, "warm", "wget", "throughput"); len(xs) != 2 || all != 3 {
		t.Errorf("PerRepeat = %v, %d", xs, all)
	}
}
