package results_test

import (
	"strings"
	"testing"

	"benchbed/results"
	"benchbed/results/resultstest"
)

func TestAverageFillOverRepeats(t *testing.T) {
	failed := resultstest.FillCell("r3", 100, 100, 100)
	failed.Status = "failed"
	got, n, err := results.AverageFill([]results.Cell{resultstest.FillCell("r1", 10, 20, 0), resultstest.FillCell("r2", 12, 30, 40), failed})
	if err != nil || n != 2 {
		t.Fatalf("n %d, err %v", n, err)
	}
	if got[0].Count != 200 || got[0].LastByte.P50 != 0.011 || got[1].LastByte.P99 != 0.075 {
		t.Errorf("buckets %+v", got)
	}
	// bucket 2 has a PUT in one repeat only: its figures are that repeat's
	if got[2].Count != 100 || got[2].LastByte.P50 != 0.04 || got[2].From != 200 || got[2].To != 300 {
		t.Errorf("bucket 2 %+v", got[2])
	}
	if _, _, err := results.AverageFill([]results.Cell{resultstest.FillCell("a", 1, 2), resultstest.FillCell("b", 1, 2, 3)}); err == nil || !strings.Contains(err.Error(), "cell b") {
		t.Errorf("repeats of other buckets averaged: %v", err)
	}
}

func TestFillDeltas(t *testing.T) {
	d, err := results.FillDeltas(resultstest.FillCell("a", 10, 20, 0).Fill, resultstest.FillCell("b", 11, 15, 5).Fill)
	if err != nil {
		t.Fatal(err)
	}
	if !d[0].HasBoth || d[0].P50 < 0.0999 || d[0].P50 > 0.1001 || d[1].P99 != -0.25 || d[2].HasBoth {
		t.Errorf("deltas %+v", d)
	}
	if _, err := results.FillDeltas(resultstest.FillCell("a", 1, 2).Fill, resultstest.FillCell("b", 1, 2, 3).Fill); err == nil {
		t.Error("buckets of other bounds compared")
	}
}
