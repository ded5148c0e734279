package workload

import (
	"fmt"
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"benchbed/plan/scenario"
)

// plotOps are the methods whose sizes the plot draws, with their colours.
var plotOps = []struct {
	method string
	crud   []int // the method's places in a crud profile
	color  color.RGBA
}{
	{"PUT", []int{0, 2}, color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}},
	{"GET", []int{1}, color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}},
}

// PlotSizes draws, for PUT and GET, the logged body sizes' distribution
// (solid) against the one the fitted scenario s draws (dashed), as
// cumulative shares over a log scale of bytes, and writes it to w as
// format ("svg", "png", "pdf").
func (f *Fitter) PlotSizes(w io.Writer, s *scenario.Scenario, format string) error {
	p := plot.New()
	p.Title.Text = "object sizes: logged (solid) and fitted scenario (dashed)"
	p.X.Label.Text = "bytes"
	p.Y.Label.Text = "share of the method's bodies at or below"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	for _, op := range plotOps {
		h := f.sizes[opIndex(op.method)]
		if h.TotalCount() == 0 {
			continue
		}
		var logged, fitted plotter.XYs
		for q := 1; q < 100; q++ {
			logged = append(logged, plotter.XY{X: math.Max(float64(h.ValueAtQuantile(float64(q))), 1), Y: float64(q) / 100})
			if x, ok := scenarioQuantile(s, op.crud, float64(q)/100); ok {
				fitted = append(fitted, plotter.XY{X: math.Max(x, 1), Y: float64(q) / 100})
			}
		}
		if err := addLine(p, op.method+" logged", logged, op.color, nil); err != nil {
			return err
		}
		if err := addLine(p, op.method+" fitted", fitted, op.color, []vg.Length{vg.Points(4), vg.Points(3)}); err != nil {
			return err
		}
	}
	p.Legend.Top, p.Legend.Left = true, true
	wt, err := p.WriterTo(8*vg.Inch, 5*vg.Inch, format)
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	_, err = wt.WriteTo(w)
	return err
}

// addLine adds a line of pts (none when empty) to p.
func addLine(p *plot.Plot, name string, pts plotter.XYs, c color.RGBA, dashes []vg.Length) error {
	if len(pts) == 0 {
		return nil
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		return fmt.Errorf("plot %s: %w", name, err)
	}
	l.LineStyle = draw.LineStyle{Color: c, Width: vg.Points(1.5), Dashes: dashes}
	p.Add(l)
	p.Legend.Add(name, l)
	return nil
}

// scenarioQuantile is the size at quantile q of the bodies s draws for
// the crud operation k: a class in proportion to its initial files times
// its share of the operations ks, then a size uniform in the class. False
// when s never draws them.
func scenarioQuantile(s *scenario.Scenario, ks []int, q float64) (float64, bool) {
	weights := make([]float64, len(s.Sizes))
	total := 0.0
	for i, z := range s.Sizes {
		p := z.CrudProfile
		if p == nil {
			p = s.CrudProfile
		}
		sum := p[0] + p[1] + p[2] + p[3]
		for _, k := range ks {
			weights[i] += float64(s.InitialFiles[z.Name]) * p[k] / sum
		}
		total += weights[i]
	}
	if total == 0 {
		return 0, false
	}
	acc := 0.0
	for i, z := range s.Sizes {
		w := weights[i] / total
		if w > 0 && acc+w >= q {
			return float64(z.SizeMin) + (q-acc)/w*float64(z.SizeMax-z.SizeMin), true
		}
		acc += w
	}
	last := s.Sizes[len(s.Sizes)-1]
	return float64(last.SizeMax), true
}
