package compare

import (
	"strings"
	"testing"

	"benchbed/results"
	"benchbed/results/rundir"
)

// TestInterleavedRunsArePaired: a run whose repeats ran in rounds, each
// round's level drifting ±20 % and servers_per_port=1 steadily 5 % above
// normal within it, is decided by the rounds' pairs (better); the same
// cells run variant after variant are not paired, and the drift leaves
// Welch's t undecided.
func TestInterleavedRunsArePaired(t *testing.T) {
	drift := []float64{1000, 800, 1200, 900, 1100}
	var rounds, serial []fixCell
	for r, d := range drift {
		rounds = append(rounds, fixNormal(r+1, d), fixSPP1(r+1, d*1.05+float64(r%2)*3))
	}
	for r, d := range drift {
		serial = append(serial, fixNormal(r+1, d))
	}
	for r, d := range drift {
		serial = append(serial, fixSPP1(r+1, d*1.05+float64(r%2)*3))
	}
	for _, tc := range []struct {
		name     string
		cells    []fixCell
		interval string
		word     string
	}{
		{"interleaved", rounds, results.IntervalPaired, results.WordBetter},
		{"variant after variant", serial, results.IntervalWelch, results.WordUndecided},
	} {
		rr, err := rundir.ReadRun(fixRun(t, "run", "", false, tc.cells...))
		if err != nil {
			t.Fatal(err)
		}
		if got := Interleaved(rr.Summary.Cells); got != (tc.interval == results.IntervalPaired) {
			t.Errorf("%s: Interleaved %v", tc.name, got)
		}
		v, err := VerdictOfRun(rr, "", CompareOptions{})
		if err != nil {
			t.Fatal(err)
		}
		c := v.Blocks[0].Changes[0]
		if c.Metric != MetricReqPerS || c.Interval != tc.interval || c.Word != tc.word {
			t.Errorf("%s: %+v", tc.name, c)
		}
		if tc.interval == results.IntervalPaired && !strings.Contains(c.By(), "5 interleaved rounds") {
			t.Errorf("%s: by %q", tc.name, c.By())
		}
	}
}
