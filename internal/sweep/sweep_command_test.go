package sweep

import (
	"bytes"
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/results"
)

func TestTableOfCommandWorkloads(t *testing.T) {
	s := bareSweeper(t)
	cmd := func(name string) *plan.Workload {
		return &plan.Workload{Name: name, Command: &plan.CommandLoad{Metric: "throughput"}}
	}
	wget, curl := cmd("wget"), cmd("curl")
	warm, cold := &plan.Variant{Name: "warm"}, &plan.Variant{Name: "cold", Description: "cold cache"}
	s.tb.Workloads = []*plan.Workload{wget, curl}
	add := func(v *plan.Variant, w *plan.Workload, mbps float64, status string) {
		s.cells = append(s.cells, cellResult{cell: plan.Cell{ID: v.Name + "-" + w.Name, Variant: v, Workload: w},
			res: results.Cell{Status: status, Error: "before: dropping caches failed",
				Metrics: map[string]results.Figure{"throughput": {Value: mbps, Unit: "MB/s"}}}})
	}
	add(warm, wget, 612.5, results.StatusOK)
	add(warm, curl, 1700, results.StatusOK)
	add(cold, wget, 0, "failed")
	add(cold, curl, 900, results.StatusOK)
	var b bytes.Buffer
	if err := s.Table(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"wget MB/s", "curl MB/s", "| warm |", "612.5", "1700.0", "| cold cache |", "failed (0/1)", "900.0",
		"failed cold-wget: before: dropping caches failed"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "req/s") {
		t.Errorf("a sweep of command workloads only has no Swift table:\n%s", out)
	}
}
