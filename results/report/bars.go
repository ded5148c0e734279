package report

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"

	"benchbed/results"
)

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

// barErrs are the bars' error bars, one standard deviation each way, at
// the bars' rows (the first bar on top).
type barErrs []Bar

func (b barErrs) Len() int                    { return len(b) }
func (b barErrs) XY(i int) (float64, float64) { return b[i].Mean, float64(len(b) - 1 - i) }
func (b barErrs) XError(i int) (float64, float64) {
	return b[i].StdDev, b[i].StdDev
}

// BarPlot draws req/s per bar, horizontally: one row per bar, the first
// on top, its whole label on the left and its value at its end, with
// error bars of one standard deviation when a bar averages repeats.
func BarPlot(bars []Bar) (Chart, error) {
	p := newPlot("Successful requests per second")
	p.X.Label.Text = "req/s"
	n := len(bars)
	vals := make(plotter.Values, n)
	labels := make([]string, n)
	values := plotter.XYLabels{XYs: make(plotter.XYs, n), Labels: make([]string, n)}
	repeated, top := false, 0.0
	for i, b := range bars {
		row := n - 1 - i
		vals[row], labels[row] = b.Mean, b.Label
		values.XYs[i] = plotter.XY{X: b.Mean + b.StdDev, Y: float64(row)}
		values.Labels[i] = f1(b.Mean)
		if b.N > 1 {
			values.Labels[i] += " ± " + f1(b.StdDev)
		}
		repeated = repeated || b.N > 1
		top = max(top, b.Mean+b.StdDev)
	}
	bc, err := plotter.NewBarChart(vals, vg.Points(16))
	if err != nil {
		return Chart{}, fmt.Errorf("plot %q: %w", p.Title.Text, err)
	}
	bc.Horizontal = true
	bc.Color = lineColor(0)
	grid := plotter.NewGrid()
	grid.Horizontal.Color = nil
	p.Add(grid, bc)
	if repeated {
		p.Title.Text += " (mean ± 1 stddev over the repeats)"
		eb, err := plotter.NewXErrorBars(barErrs(bars))
		if err != nil {
			return Chart{}, fmt.Errorf("plot %q: %w", p.Title.Text, err)
		}
		p.Add(eb)
	}
	vl, err := plotter.NewLabels(values)
	if err != nil {
		return Chart{}, fmt.Errorf("plot %q: %w", p.Title.Text, err)
	}
	for i := range vl.TextStyle {
		vl.TextStyle[i].Font = font.From(plotFont, 9)
		vl.TextStyle[i].YAlign = text.YCenter
	}
	vl.Offset = vg.Point{X: vg.Points(4)}
	p.Add(vl)
	p.NominalY(labels...)
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	p.X.Min, p.X.Max = 0, top*1.2
	p.X.Tick.Marker = plot.TickerFunc(plainTicks)
	return Chart{Plot: p, Height: sizeFor(n)}, nil
}
