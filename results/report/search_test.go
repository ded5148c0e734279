package report

import (
	"strings"
	"testing"

	"benchbed/results"
	"benchbed/results/rundir"
)

// TestSearchPlot: the probes' p50 and p99 against offered and achieved
// rate, and the knee at the capacity, drawn and rendered.
func TestSearchPlot(t *testing.T) {
	c := results.Cell{ID: "c1", Variant: "normal", Workload: "get", Search: &results.SearchResult{SLO: "first_byte_p99<50ms",
		Capacity: 400, Probes: []results.ProbeRecord{
			{Offered: 800, Achieved: 520, Count: 9, FirstByte: results.Stats{P50: 0.04, P99: 0.3}},
			{Offered: 400, Achieved: 399, Count: 9, FirstByte: results.Stats{P50: 0.004, P99: 0.02}, Pass: true},
			{Offered: 1600, Count: 0},
		}}}
	ch, err := SearchPlot(c)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range ch.Legend {
		names = append(names, l.Name)
	}
	if got := strings.Join(names, ","); got != "p50 by offered,p99 by offered,p50 by achieved,p99 by achieved,knee: capacity 400 req/s" {
		t.Errorf("legend %s", got)
	}
	if svg, _, err := Render(ch); err != nil || !strings.Contains(string(svg), "<svg") {
		t.Errorf("render: %v", err)
	}
	r := &Report{Run: &rundir.RunResults{Summary: results.Summary{Cells: []results.Cell{{ID: "plain"}, c}}}}
	tables := r.searchTables()
	if len(tables) != 2 || tables[0].Rows[0][2] != "400" || len(tables[1].Rows) != 3 {
		t.Errorf("tables %+v", tables)
	}
}
