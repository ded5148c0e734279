package report

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"benchbed/results"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Size of every plot.
const (
	plotWidth  = 9 * vg.Inch
	plotHeight = 5 * vg.Inch
)

// Curve is one named line of a plot.
type Curve struct {
	Name string
	XYs  plotter.XYs
}

// ThroughputPlot draws successful requests per second over the run's
// seconds, one line per cell (from the cells' per_second).
func ThroughputPlot(cells []results.Cell) (*plot.Plot, error) {
	var curves []Curve
	for _, c := range cells {
		if len(c.PerSecond) == 0 {
			continue
		}
		xys := make(plotter.XYs, len(c.PerSecond))
		for i, n := range c.PerSecond {
			xys[i] = plotter.XY{X: float64(i), Y: float64(n)}
		}
		curves = append(curves, Curve{Name: cellName(c), XYs: xys})
	}
	p := plot.New()
	p.Title.Text = "Successful requests per second over time"
	p.X.Label.Text = "second of the run (the last one may be partial)"
	p.Y.Label.Text = "req/s"
	if err := addCurves(p, curves); err != nil {
		return nil, err
	}
	p.Y.Min = 0
	return p, nil
}

// SpectrumPlot draws latency percentile spectra in milliseconds, on a log
// x axis of 1/(1-q) labelled in percentiles, like HdrHistogram's plots.
func SpectrumPlot(title string, curves []Curve) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "percentile"
	p.Y.Label.Text = "latency (ms)"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.TickerFunc(percentileTicks)
	if err := addCurves(p, curves); err != nil {
		return nil, err
	}
	p.X.Min = 2 // the spectra start at the median
	p.Y.Min = 0
	return p, nil
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

// maxLegendRows bounds the room left above the data for the legend: with
// more curves the legend covers the data's top.
const maxLegendRows = 16

// addCurves adds each curve as a line of its own color and dash, with a
// legend entry, and leaves room above the data for the legend.
func addCurves(p *plot.Plot, curves []Curve) error {
	top := 0.0
	for i, c := range curves {
		l, err := plotter.NewLine(c.XYs)
		if err != nil {
			return fmt.Errorf("plot %q, %s: %w", p.Title.Text, c.Name, err)
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i / len(plotutil.SoftColors))
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(c.Name, l)
		for _, xy := range c.XYs {
			top = max(top, xy.Y)
		}
	}
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs = vg.Points(8)
	p.Add(plotter.NewGrid())
	rows := float64(min(len(curves), maxLegendRows))
	if len(curves) > 8 {
		p.Legend.TextStyle.Font.Size = vg.Points(8)
		rows *= 0.7
	}
	if top > 0 {
		p.Y.Max = top * (1.05 + 0.07*rows)
	}
	return nil
}

// Bar is one bar of BarPlot: a mean and the spread of what it averages.
type Bar struct {
	Label  string
	Mean   float64
	StdDev float64
	N      int // values averaged (repeats that count)
}

// Bars gives one bar per variant and workload: the req/s of its cell, or
// the mean and standard deviation over its ok repeats.
func Bars(cells []results.Cell) []Bar {
	var out []Bar
	for _, g := range Groups(cells) {
		label := g[0].Variant
		if label == "" || len(Groups(cells)) > 1 && hasWorkloads(cells) {
			label = g[0].Variant + " " + g[0].Workload
		}
		a := aggregate(g)
		if a.OK == 0 {
			label += " (failed)"
		}
		out = append(out, Bar{Label: label, Mean: a.ReqPerS.Mean, StdDev: a.ReqPerS.StdDev, N: a.OK})
	}
	return out
}

// hasWorkloads reports whether the cells have more than one workload.
func hasWorkloads(cells []results.Cell) bool {
	for _, c := range cells {
		if c.Workload != cells[0].Workload {
			return true
		}
	}
	return false
}

// barErrs are the bars' error bars: one standard deviation each way.
type barErrs []Bar

func (b barErrs) Len() int                    { return len(b) }
func (b barErrs) XY(i int) (float64, float64) { return float64(i), b[i].Mean }
func (b barErrs) YError(i int) (float64, float64) {
	return b[i].StdDev, b[i].StdDev
}

// BarPlot draws req/s per bar, with error bars of one standard deviation
// when a bar averages repeats.
func BarPlot(bars []Bar) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Successful requests per second"
	p.Y.Label.Text = "req/s"
	vals := make(plotter.Values, len(bars))
	labels := make([]string, len(bars))
	repeated := false
	for i, b := range bars {
		vals[i], labels[i] = b.Mean, b.Label
		repeated = repeated || b.N > 1
	}
	width := vg.Length(math.Min(60, 500/float64(max(len(bars), 1))))
	bc, err := plotter.NewBarChart(vals, width)
	if err != nil {
		return nil, fmt.Errorf("plot %q: %w", p.Title.Text, err)
	}
	bc.Color = plotutil.Color(0)
	grid := plotter.NewGrid()
	grid.Vertical.Color = nil
	p.Add(grid, bc)
	if repeated {
		p.Title.Text += " (mean ± 1 stddev over the repeats)"
		eb, err := plotter.NewYErrorBars(barErrs(bars))
		if err != nil {
			return nil, fmt.Errorf("plot %q: %w", p.Title.Text, err)
		}
		p.Add(eb)
	}
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.5, float64(len(bars))-0.5
	top := 0.0
	for _, b := range bars {
		top = max(top, b.Mean+b.StdDev)
	}
	p.Y.Max = top * 1.1
	if len(bars) > 4 {
		p.X.Tick.Label.Rotation = math.Pi / 8
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = -1, -0.5
	}
	p.Y.Min = 0
	return p, nil
}

// Render draws p as SVG and PNG. A panic of the plotting library (it
// panics on data it cannot scale) becomes an error.
func Render(p *plot.Plot) (svg, png []byte, err error) {
	defer func() {
		if v := recover(); v != nil {
			svg, png, err = nil, nil, fmt.Errorf("drawing %q: %v", p.Title.Text, v)
		}
	}()
	var out [2]bytes.Buffer
	for i, format := range []string{"svg", "png"} {
		wt, err := p.WriterTo(plotWidth, plotHeight, format)
		if err != nil {
			return nil, nil, err
		}
		if _, err := wt.WriteTo(&out[i]); err != nil {
			return nil, nil, err
		}
	}
	return out[0].Bytes(), out[1].Bytes(), nil
}
