package report

import (
	"bytes"
	"image/png"
	"strconv"
	"strings"
	"testing"

	"benchbed/results"
)

// fillCells are two variants' fill cells, two repeats each: last-byte p50
// of base+slope*bucket ms, p95 and p99 twice and three times that; the
// middle bucket of the "tuned" repeats has no PUT.
func fillCells() []results.Cell {
	spec := results.FillSpec{Objects: 20000, Buckets: 10}
	var cells []results.Cell
	for _, v := range []struct {
		name        string
		base, slope float64
	}{{"normal", 10, 0.5}, {"tuned", 8, 0.2}} {
		for r := 1; r <= 2; r++ {
			c := results.Cell{ID: v.name + "-r" + strconv.Itoa(r), Variant: v.name, Workload: "fill", Repeat: r, Status: "ok"}
			for i := range spec.Buckets {
				b := results.FillBucket{}
				b.From, b.To = spec.Bounds(i)
				ms := (v.base + v.slope*float64(i) + float64(r)) / 1000
				if v.name != "tuned" || i != 5 {
					b.Count = 2000
					b.LastByte = results.Stats{P50: ms, P95: 2 * ms, P99: 3 * ms, Mean: ms}
				}
				c.Fill = append(c.Fill, b)
			}
			cells = append(cells, c)
		}
	}
	return append(cells, results.Cell{ID: "other", Variant: "normal", Workload: "64K_get", Status: "ok"})
}

func TestFillPlot(t *testing.T) {
	series, err := FillSeriesOf(fillCells())
	if err != nil {
		t.Fatal(err)
	}
	if len(series) != 2 || series[0].Repeats != 2 || series[0].Name != "normal fill" {
		t.Fatalf("series %+v", series)
	}
	if got := series[0].Buckets[0].LastByte.P50; got < 0.01149 || got > 0.01151 {
		t.Errorf("normal's first bucket p50 %v, want the repeats' mean 11.5 ms", got)
	}
	c, err := FillPlot(series)
	if err != nil {
		t.Fatal(err)
	}
	svg, pngData, err := Render(c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(pngData)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"normal fill p50", "tuned fill p99", "objects in the container"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("the plot has no %q", want)
		}
	}
	if c.Plot.X.Max != 20000 || c.Plot.Y.Max < 16.5 {
		t.Errorf("axes end at %v objects, %v ms", c.Plot.X.Max, c.Plot.Y.Max)
	}
	bad := fillCells()
	bad[1].Fill = bad[1].Fill[:3]
	if _, err := FillSeriesOf(bad); err == nil || !strings.Contains(err.Error(), "normal fill") {
		t.Errorf("repeats of other buckets: %v", err)
	}
}
