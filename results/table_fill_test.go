package results_test

import (
	"strings"
	"testing"

	"benchbed/results"

	"benchbed/results/resultstest"
)

func TestWriteFillTable(t *testing.T) {
	var b strings.Builder
	if err := results.WriteFillTable(&b, resultstest.FillCell("c", 12.5, 0, 13.25).Fill); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{" 0..100 |", " 0..33 |", " 12.50 |", " 39.75 |", " 200..300 |", " 67..100 |", results.FillLegend} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if row := strings.Split(out, "\n")[3]; strings.Count(row, " - ") != 7 {
		t.Errorf("the empty bucket's row: %s", row)
	}
}

func TestFillDeltaRows(t *testing.T) {
	d, err := results.FillDeltas(resultstest.FillCell("a", 10, 20, 0).Fill, resultstest.FillCell("b", 11, 15, 5).Fill)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(strings.Join(results.FillDeltaHeader("normal", "tuned"), " | "))
	for _, row := range results.FillDeltaRows(d) {
		b.WriteString("\n" + strings.Join(row, " | "))
	}
	for _, want := range []string{"p50 normal", "p99 tuned", "+10.0 %", "-25.0 %"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
}
