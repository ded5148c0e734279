package main

import (
	"strings"
	"testing"

	"benchbed/results"
)

// TestResultsLine: a sweep whose run-wide steps failed before any cell
// does not say "results in" a directory that holds none.
func TestResultsLine(t *testing.T) {
	for _, c := range []struct {
		sum  *results.Summary
		want string
	}{
		{nil, "no cell ran"},
		{&results.Summary{}, "no cell ran"},
		{&results.Summary{Cells: []results.Cell{{ID: "001"}}}, "results in runs/x"},
	} {
		if got := resultsLine(c.sum, "runs/x"); !strings.Contains(got, c.want) {
			t.Errorf("resultsLine(%v) = %q, want %q in it", c.sum, got, c.want)
		}
	}
}
