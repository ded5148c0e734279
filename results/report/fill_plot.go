package report

import (
	"fmt"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"benchbed/results"
)

// FillSeries is one variant's (and workload's) fill buckets, averaged over
// its repeats, for FillPlot.
type FillSeries struct {
	Name     string               `json:"name"` // variant and workload
	Variant  string               `json:"variant"`
	Workload string               `json:"workload"`
	Buckets  []results.FillBucket `json:"buckets"`
	Repeats  int                  `json:"repeats"` // repeats averaged
}

// FillSeriesOf groups the cells with fill buckets by variant and workload
// and averages each group's repeats (results.AverageFill); groups with no
// finished repeat are left out.
func FillSeriesOf(cells []results.Cell) ([]FillSeries, error) {
	var out []FillSeries
	for _, g := range Groups(cells) {
		b, n, err := results.AverageFill(g)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", groupName(g[0]), err)
		}
		if n > 0 {
			out = append(out, FillSeries{Name: groupName(g[0]), Variant: g[0].Variant, Workload: g[0].Workload, Buckets: b, Repeats: n})
		}
	}
	return out, nil
}

// groupName names a variant and workload.
func groupName(c results.Cell) string {
	if c.Variant == "" {
		return c.Workload
	}
	return c.Variant + " " + c.Workload
}

// fillQuantiles are FillPlot's lines, each with its dash pattern.
var fillQuantiles = []struct {
	name string
	of   func(results.Stats) float64
}{
	{"p50", func(s results.Stats) float64 { return s.P50 }},
	{"p95", func(s results.Stats) float64 { return s.P95 }},
	{"p99", func(s results.Stats) float64 { return s.P99 }},
}

// FillPlot draws PUT latency (last byte, p50, p95 and p99, in ms) against
// the objects in the container, a point at each bucket's middle: one color
// per series, one dash pattern per percentile. A bucket with no PUT leaves
// a gap in its lines.
func FillPlot(series []FillSeries) (Chart, error) {
	p := newPlot("PUT latency against objects in the container (last byte)")
	p.X.Label.Text = "objects in the container when the PUT started"
	p.Y.Label.Text = "latency (ms)"
	p.X.Tick.Marker = plot.TickerFunc(objectTicks)
	p.Y.Tick.Marker = plot.TickerFunc(plainTicks)
	top := 0.0
	var legend []LegendEntry
	for i, s := range series {
		for k, q := range fillQuantiles {
			for j, xys := range fillSegments(s.Buckets, q.of) {
				l, pts, err := plotter.NewLinePoints(xys)
				if err != nil {
					return Chart{}, fmt.Errorf("plot %q, %s: %w", p.Title.Text, s.Name, err)
				}
				l.Color, pts.Color = lineColor(i), lineColor(i)
				l.Dashes, l.Width = plotutil.Dashes(k), vg.Points(1.5)
				pts.Shape, pts.Radius = draw.CircleGlyph{}, vg.Points(2)
				p.Add(l, pts)
				if j == 0 {
					legend = append(legend, LegendEntry{Name: s.Name + " " + q.name, Thumbs: []plot.Thumbnailer{l, pts}})
				}
				for _, xy := range xys {
					top = max(top, xy.Y)
				}
			}
		}
	}
	p.Add(plotter.NewGrid())
	p.X.Min, p.Y.Min = 0, 0
	for _, s := range series {
		p.X.Max = max(p.X.Max, float64(results.FillTarget(s.Buckets)))
	}
	if top > 0 {
		p.Y.Max = top * 1.05 // the highest line clear of the frame; the legend is below
	}
	return Chart{Plot: p, Legend: legend}, nil
}

// fillSegments are the points (x: a bucket's middle, y: of its last byte
// in ms) of the runs of consecutive buckets that have PUTs.
func fillSegments(buckets []results.FillBucket, of func(results.Stats) float64) []plotter.XYs {
	var out []plotter.XYs
	var cur plotter.XYs
	for _, b := range buckets {
		if b.Count == 0 {
			if len(cur) > 0 {
				out, cur = append(out, cur), nil
			}
			continue
		}
		cur = append(cur, plotter.XY{X: float64(b.From+b.To) / 2, Y: of(b.LastByte) * 1000})
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// objectTicks are gonum's default ticks labelled as object counts: 20k,
// 1.6M.
func objectTicks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i, t := range ticks {
		if t.Label != "" {
			ticks[i].Label = objectCount(t.Value)
		}
	}
	return ticks
}

// plainTicks are gonum's default ticks labelled with the digits they need
// (250, not 250.00).
func plainTicks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i, t := range ticks {
		if t.Label != "" {
			ticks[i].Label = strconv.FormatFloat(t.Value, 'f', -1, 64)
		}
	}
	return ticks
}

// objectCount shows n with a k or M suffix from 1,000 up.
func objectCount(n float64) string {
	switch {
	case n >= 1e6:
		return strconv.FormatFloat(n/1e6, 'f', -1, 64) + "M"
	case n >= 1e3:
		return strconv.FormatFloat(n/1e3, 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(n, 'f', -1, 64)
}
