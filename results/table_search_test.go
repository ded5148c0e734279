package results

import (
	"strings"
	"testing"
)

// TestWriteSearchTables: the capacity row of a search cell, then its
// probes with their verdicts; cells without a search print nothing.
func TestWriteSearchTables(t *testing.T) {
	cpu := 0.25
	c := Cell{ID: "c1", Search: &SearchResult{SLO: "first_byte_p99<50ms", Capacity: 400, Achieved: 398, Outcome: OutcomeCapacity,
		Why: "confirmed", Probes: []ProbeRecord{
			{Role: "step", Offered: 400, Achieved: 399, Count: 10, FirstByte: Stats{P50: 0.004, P99: 0.02}, Pass: true, ClientCPU: &cpu},
			{Role: "step", Offered: 800, Achieved: 500, Count: 10, FirstByte: Stats{P50: 0.04, P99: 0.2}, Why: "achieved 500 of 800 req/s offered"},
		}}}
	var b strings.Builder
	if err := WriteSearchTables(&b, []Cell{{ID: "plain"}, c}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| c1 | first_byte_p99<50ms | 400 | 398 | capacity | 2 | confirmed |",
		"| 1 | step | 400 | 399 | 4.00 | 20.00 | 0% | 25% | pass |", "| fail: achieved 500 of 800 req/s offered |"} {
		if !strings.Contains(squeeze(b.String()), want) {
			t.Errorf("tables lack %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := WriteSearchTables(&b, []Cell{{ID: "plain"}}); err != nil || b.Len() != 0 {
		t.Errorf("no search: %v %q", err, b.String())
	}
}

// squeeze collapses each line's runs of spaces (the table's padding).
func squeeze(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}
