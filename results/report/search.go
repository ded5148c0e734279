package report

import (
	"fmt"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"benchbed/results"
)

// searchTables are the capacity table of the run's search cells and each
// one's probes.
func (r *Report) searchTables() []table {
	cells := results.SearchCells(r.Run.Summary.Cells)
	if len(cells) == 0 {
		return nil
	}
	out := []table{{Title: "Capacity at SLO", Header: results.SearchHeader, Rows: results.SearchRows(cells)}}
	for _, c := range cells {
		out = append(out, table{Title: "Probes of " + cellName(c), Header: results.ProbeHeader, Rows: results.ProbeRows(c.Search)})
	}
	return out
}

// searchLines are SearchPlot's curves: a percentile of the first byte
// against the offered or the achieved rate.
var searchLines = []struct {
	name     string
	of       func(results.Stats) float64
	achieved bool
}{
	{"p50 by offered", func(s results.Stats) float64 { return s.P50 }, false},
	{"p99 by offered", func(s results.Stats) float64 { return s.P99 }, false},
	{"p50 by achieved", func(s results.Stats) float64 { return s.P50 }, true},
	{"p99 by achieved", func(s results.Stats) float64 { return s.P99 }, true},
}

// SearchPlot draws a search cell's probes: first-byte p50 and p99 (ms)
// against the offered rate (solid) and the achieved rate (dashed), a
// point per probe with operations, and the knee, the capacity at the
// SLO, marked as a vertical line.
func SearchPlot(c results.Cell) (Chart, error) {
	s := c.Search
	p := newPlot(fmt.Sprintf("%s: first-byte latency against rate (capacity search, %s)", cellName(c), s.SLO))
	p.X.Label.Text = "req/s"
	p.Y.Label.Text = "first-byte latency (ms)"
	p.X.Tick.Marker = plot.TickerFunc(plainTicks)
	p.Y.Tick.Marker = plot.TickerFunc(plainTicks)
	probes := make([]results.ProbeRecord, 0, len(s.Probes))
	for _, pr := range s.Probes {
		if pr.Count > 0 {
			probes = append(probes, pr)
		}
	}
	sort.SliceStable(probes, func(i, j int) bool { return probes[i].Offered < probes[j].Offered })
	top := 1.0
	var legend []LegendEntry
	for i, sl := range searchLines {
		var xys plotter.XYs
		for _, pr := range probes {
			x := pr.Offered
			if sl.achieved {
				x = pr.Achieved
			}
			xys = append(xys, plotter.XY{X: x, Y: sl.of(pr.FirstByte) * 1000})
			top = max(top, sl.of(pr.FirstByte)*1000)
		}
		if len(xys) == 0 {
			continue
		}
		l, pts, err := plotter.NewLinePoints(xys)
		if err != nil {
			return Chart{}, fmt.Errorf("plot %q: %w", p.Title.Text, err)
		}
		l.Color, pts.Color = lineColor(i%2), lineColor(i%2)
		l.Width, pts.Shape, pts.Radius = vg.Points(1.5), draw.CircleGlyph{}, vg.Points(2)
		if sl.achieved {
			l.Dashes = plotutil.Dashes(1)
		}
		p.Add(l, pts)
		legend = append(legend, LegendEntry{Name: sl.name, Thumbs: []plot.Thumbnailer{l, pts}})
	}
	if s.Capacity > 0 {
		knee, err := plotter.NewLine(plotter.XYs{{X: s.Capacity, Y: 0}, {X: s.Capacity, Y: top * 1.05}})
		if err != nil {
			return Chart{}, err
		}
		knee.Color, knee.Width, knee.Dashes = faultShade, vg.Points(2), plotutil.Dashes(2)
		p.Add(knee)
		legend = append(legend, LegendEntry{Name: fmt.Sprintf("knee: capacity %.4g req/s", s.Capacity), Thumbs: []plot.Thumbnailer{knee}})
	}
	p.Add(plotter.NewGrid())
	p.X.Min, p.Y.Min, p.Y.Max = 0, 0, top*1.05
	return Chart{Plot: p, Legend: legend}, nil
}

// searchFigures renders each search cell's plot.
func (r *Report) searchFigures() ([]Figure, error) {
	var out []Figure
	for _, c := range results.SearchCells(r.Run.Summary.Cells) {
		ch, err := SearchPlot(c)
		if err != nil {
			return nil, err
		}
		name := "search_" + c.ID
		svg, png, err := Render(ch)
		if err != nil {
			return nil, fmt.Errorf("plot %s: %w", name, err)
		}
		out = append(out, Figure{Name: name, Title: ch.Plot.Title.Text, SVG: svg, PNG: png})
	}
	return out, nil
}
