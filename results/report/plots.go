package report

import (
	"fmt"
	"image/color"
	"strconv"

	"benchbed/results"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Curve is one named line of a plot.
type Curve struct {
	Name string
	XYs  plotter.XYs
}

// ThroughputPlot draws successful requests per second over the run's
// whole seconds, one line per cell (from the cells' per_second).
func ThroughputPlot(cells []results.Cell) (Chart, error) {
	var curves []Curve
	for _, c := range cells {
		if len(c.PerSecond) == 0 {
			continue
		}
		curves = append(curves, Curve{Name: cellName(c), XYs: wholeSeconds(c.PerSecond)})
	}
	p := newPlot("Successful requests per second over time")
	p.X.Label.Text = "second of the run (its partial first and last seconds not drawn)"
	p.Y.Label.Text = "req/s"
	p.Y.Tick.Marker = plot.TickerFunc(plainTicks)
	legend, err := addCurves(p, curves)
	p.Y.Min = 0
	return Chart{Plot: p, Legend: legend}, err
}

// wholeSeconds are a run's seconds without its first and last, which the
// run covers only in part (its agents start and stop within them), each
// at its index in the run; a run of 2 seconds or fewer keeps them all.
func wholeSeconds(perSecond []int64) plotter.XYs {
	from, to := 0, len(perSecond)
	if to > 2 {
		from, to = 1, to-1
	}
	xys := make(plotter.XYs, 0, to-from)
	for i := from; i < to; i++ {
		xys = append(xys, plotter.XY{X: float64(i), Y: float64(perSecond[i])})
	}
	return xys
}

// SpectrumPlot draws latency percentile spectra in milliseconds, on a log
// x axis of 1/(1-q) labelled in percentiles, like HdrHistogram's plots.
func SpectrumPlot(title string, curves []Curve) (Chart, error) {
	p := newPlot(title)
	p.X.Label.Text = "percentile"
	p.Y.Label.Text = "latency (ms)"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.TickerFunc(percentileTicks)
	p.Y.Tick.Marker = plot.TickerFunc(plainTicks)
	legend, err := addCurves(p, curves)
	p.X.Min = 2 // the spectra start at the median
	p.Y.Min = 0
	return Chart{Plot: p, Legend: legend}, err
}

// SpectrumCurve turns spectrum points into a curve: x = 1/(1-q), y in ms.
func SpectrumCurve(name string, pts []SpectrumPoint) Curve {
	xys := make(plotter.XYs, len(pts))
	for i, pt := range pts {
		xys[i] = plotter.XY{X: 1 / (1 - pt.Q), Y: pt.Seconds * 1000}
	}
	return Curve{Name: name, XYs: xys}
}

// percentileTicks marks 1/(1-q) at 2 (50%) and every power of ten (90%,
// 99%, 99.9%...), with minor ticks between the powers.
func percentileTicks(lo, hi float64) []plot.Tick {
	ticks := []plot.Tick{{Value: 2, Label: "50%"}}
	for d := 10.0; d <= hi*1.0001; d *= 10 {
		ticks = append(ticks, plot.Tick{Value: d, Label: strconv.FormatFloat(100-100/d, 'f', -1, 64) + "%"})
		for m := 2.0; m < 10 && d*m <= hi; m++ {
			ticks = append(ticks, plot.Tick{Value: d * m})
		}
	}
	return ticks
}

// addCurves adds each curve as a line of its own color and dash, and
// returns their legend entries (drawn below the axes by Render).
func addCurves(p *plot.Plot, curves []Curve) ([]LegendEntry, error) {
	var legend []LegendEntry
	top := 0.0
	for i, c := range curves {
		l, err := plotter.NewLine(c.XYs)
		if err != nil {
			return nil, fmt.Errorf("plot %q, %s: %w", p.Title.Text, c.Name, err)
		}
		l.Color, l.Dashes = lineColor(i), lineDashes(i)
		l.Width = vg.Points(1.5)
		p.Add(l)
		legend = append(legend, LegendEntry{Name: c.Name, Thumbs: []plot.Thumbnailer{l}})
		for _, xy := range c.XYs {
			top = max(top, xy.Y)
		}
	}
	if top > 0 {
		p.Y.Max = top * 1.05 // the highest curve clear of the frame
	}
	p.Add(plotter.NewGrid())
	return legend, nil
}

// palette is Okabe and Ito's colour-blind-safe palette ("Color Universal
// Design", 2008), the colours that stay apart under protanopia and
// deuteranopia first; its yellow, faint on white, last.
var palette = []color.Color{
	color.RGBA{R: 0x00, G: 0x72, B: 0xB2, A: 255}, // blue
	color.RGBA{R: 0xD5, G: 0x5E, B: 0x00, A: 255}, // vermillion
	color.RGBA{R: 0x00, G: 0x9E, B: 0x73, A: 255}, // bluish green
	color.RGBA{R: 0xE6, G: 0x9F, B: 0x00, A: 255}, // orange
	color.RGBA{R: 0xCC, G: 0x79, B: 0xA7, A: 255}, // reddish purple
	color.RGBA{R: 0x56, G: 0xB4, B: 0xE9, A: 255}, // sky blue
	color.RGBA{R: 0x00, G: 0x00, B: 0x00, A: 255}, // black
	color.RGBA{R: 0xF0, G: 0xE4, B: 0x42, A: 255}, // yellow
}

// lineColor is the colour of a plot's i-th line: the palette's, again
// from its start after its last (lineDashes then tells them apart).
func lineColor(i int) color.Color { return palette[i%len(palette)] }

// lineDashes is the dash pattern of a plot's i-th line: solid through the
// palette's first round, then plotutil's patterns one round each.
func lineDashes(i int) []vg.Length { return plotutil.Dashes(i / len(palette)) }
