package results

import (
	"strings"
	"testing"
)

// fillCell is a finished cell of a fill run whose bucket i has n PUTs of
// last-byte p50 ms[i] milliseconds (0: no PUT).
func fillCell(id string, ms ...float64) Cell {
	spec := FillSpec{Objects: int64(100 * len(ms)), Buckets: len(ms)}
	c := Cell{ID: id, Status: "ok"}
	for i, m := range ms {
		b := FillBucket{}
		b.From, b.To = spec.Bounds(i)
		if m > 0 {
			b.Count = 100
			b.LastByte = Stats{P50: m / 1000, P95: 2 * m / 1000, P99: 3 * m / 1000, Mean: m / 1000}
			b.FirstByte = Stats{P50: m / 2000}
		}
		c.Fill = append(c.Fill, b)
	}
	return c
}

func TestAverageFillOverRepeats(t *testing.T) {
	failed := fillCell("r3", 100, 100, 100)
	failed.Status = "failed"
	got, n, err := AverageFill([]Cell{fillCell("r1", 10, 20, 0), fillCell("r2", 12, 30, 40), failed})
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
	if _, _, err := AverageFill([]Cell{fillCell("a", 1, 2), fillCell("b", 1, 2, 3)}); err == nil || !strings.Contains(err.Error(), "cell b") {
		t.Errorf("repeats of other buckets averaged: %v", err)
	}
}

func TestWriteFillTable(t *testing.T) {
	var b strings.Builder
	if err := WriteFillTable(&b, fillCell("c", 12.5, 0, 13.25).Fill); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{" 0..100 |", " 0..33 |", " 12.50 |", " 39.75 |", " 200..300 |", " 67..100 |", FillLegend} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if row := strings.Split(out, "\n")[3]; strings.Count(row, " - ") != 7 {
		t.Errorf("the empty bucket's row: %s", row)
	}
}

func TestFillDeltas(t *testing.T) {
	d, err := FillDeltas(fillCell("a", 10, 20, 0).Fill, fillCell("b", 11, 15, 5).Fill)
	if err != nil {
		t.Fatal(err)
	}
	if !d[0].HasBoth || d[0].P50 < 0.0999 || d[0].P50 > 0.1001 || d[1].P99 != -0.25 || d[2].HasBoth {
		t.Errorf("deltas %+v", d)
	}
	var b strings.Builder
	if err := WriteFillDeltas(&b, "normal", "tuned", d); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"p50 normal", "p99 tuned", "+10.0 %", "-25.0 %", FillDeltaLegend} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
	if _, err := FillDeltas(fillCell("a", 1, 2).Fill, fillCell("b", 1, 2, 3).Fill); err == nil {
		t.Error("buckets of other bounds compared")
	}
}
