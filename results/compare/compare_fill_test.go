package compare

import (
	"strings"
	"testing"

	"benchbed/results"
	"benchbed/results/resultstest"
)

// TestCompareFillPerBucket: a pair of fill cells gets each bucket's
// change, written under the metrics; sides without buckets get none, and
// one side without them gets a note.
func TestCompareFillPerBucket(t *testing.T) {
	a1, a2, b := resultstest.FillCell("a1", 10, 20), resultstest.FillCell("a2", 12, 22), resultstest.FillCell("b", 11, 42)
	d, note := compareFill([]*results.Cell{&a1, &a2}, []*results.Cell{&b})
	if note != "" || len(d) != 2 || d[0].P50 != 0 || d[1].P50 < 0.9999 || d[1].P50 > 1.0001 {
		t.Fatalf("deltas %+v, note %q", d, note)
	}
	var out strings.Builder
	c := &Comparison{A: "runA", B: "runB", Alpha: 0.05, Pairs: []Pair{{A: "normal / fill", B: "tuned / fill", Fill: d}}}
	if err := WriteComparison(&out, c, "text"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"PUT latency by container fill", "p50 A", "p99 B", "+0.0 %", "+100.0 %", "100..200"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
	plain := results.Cell{Status: "ok"}
	if d, note := compareFill([]*results.Cell{&plain}, []*results.Cell{&plain}); d != nil || note != "" {
		t.Errorf("cells without fill: %v, %q", d, note)
	}
	if d, note := compareFill([]*results.Cell{&a1}, []*results.Cell{&plain}); d != nil || !strings.Contains(note, "only one side") {
		t.Errorf("one side without fill: %v, %q", d, note)
	}
}
