package report

import (
	"bytes"
	"fmt"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Size of a plot (without its legend, which adds rows below).
const (
	plotWidth  = 9 * vg.Inch
	plotHeight = 5 * vg.Inch
)

// plotFont is the plots' typeface: Liberation Sans, whose metrics are
// Arial's and Helvetica's, so that a browser lays an inline SVG's text
// out as the plot measured it (svgFontStack names those fonts).
var plotFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

// svgFontStack replaces the SVGs' font family: the metric-compatible
// fonts a reader's browser may have, then any sans-serif.
const svgFontStack = "font-family:'Liberation Sans',Arimo,Arial,Helvetica,sans-serif"

// Chart is a plot ready to draw with its legend below the axes, in
// columns, where it never covers the data.
type Chart struct {
	Plot   *plot.Plot
	Legend []LegendEntry
	Height vg.Length // of the plot without its legend; 0 means plotHeight
}

// LegendEntry is one line of a chart's legend: its name and what its
// thumbnail draws (a line, its points...).
type LegendEntry struct {
	Name   string
	Thumbs []plot.Thumbnailer
}

// newPlot returns an empty plot titled title, all its text in plotFont.
func newPlot(title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(plotFont, 12)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(plotFont, 11)
		a.Tick.Label.Font = font.From(plotFont, 10)
	}
	return p
}

// legendColumns lays the entries out in columns of equal width filling
// width; it returns the columns and the height of the tallest.
func legendColumns(entries []LegendEntry, width vg.Length) ([]plot.Legend, vg.Length) {
	if len(entries) == 0 {
		return nil, 0
	}
	proto := plot.NewLegend()
	proto.TextStyle.Font = font.From(plotFont, 10)
	proto.Top, proto.Left = true, true
	proto.Padding = vg.Points(2)
	colW := vg.Length(0)
	for _, e := range entries {
		colW = max(colW, proto.ThumbnailWidth+proto.TextStyle.Width(" "+e.Name+"   "))
	}
	cols := max(1, min(len(entries), int(float64(width)/float64(colW))))
	rows := (len(entries) + cols - 1) / cols
	out := make([]plot.Legend, 0, cols)
	for i := 0; i < len(entries); i += rows {
		l := proto
		for _, e := range entries[i:min(i+rows, len(entries))] {
			l.Add(e.Name, e.Thumbs...)
		}
		out = append(out, l)
	}
	entry := proto.TextStyle.Height("Xg")
	return out, vg.Length(rows)*(entry+proto.Padding) + vg.Points(8)
}

// Render draws c as SVG and PNG. A panic of the plotting library (it
// panics on data it cannot scale) becomes an error.
func Render(c Chart) (svg, png []byte, err error) {
	defer func() {
		if v := recover(); v != nil {
			svg, png, err = nil, nil, fmt.Errorf("drawing %q: %v", c.Plot.Title.Text, v)
		}
	}()
	margin := vg.Points(10)
	legends, lh := legendColumns(c.Legend, plotWidth-2*margin)
	h := c.Height
	if h == 0 {
		h = plotHeight
	}
	w, h := plotWidth, h+lh
	draw := func(cv vg.CanvasSizer) {
		dc := draw.New(cv)
		c.Plot.Draw(draw.Crop(dc, margin, -margin, lh, -margin/2))
		colW := (w - 2*margin) / vg.Length(max(len(legends), 1))
		for i := range legends {
			x := margin + vg.Length(i)*colW
			legends[i].Draw(draw.Crop(dc, x, x+colW-w, 0, lh-h))
		}
	}
	sv := vgsvg.New(w, h)
	draw(sv)
	pg := vgimg.PngCanvas{Canvas: vgimg.New(w, h)}
	draw(pg)
	var out [2]bytes.Buffer
	for i, wt := range []io.WriterTo{sv, pg} {
		if _, err := wt.WriteTo(&out[i]); err != nil {
			return nil, nil, err
		}
	}
	return svgFonts(out[0].Bytes()), out[1].Bytes(), nil
}

// svgFonts gives the SVG's text the font stack of svgFontStack.
func svgFonts(svg []byte) []byte {
	return bytes.ReplaceAll(svg, []byte("font-family:Liberation Sans;"), []byte(svgFontStack+";"))
}

// sizeFor grows a plot's height with its number of rows (bars).
func sizeFor(rows int) vg.Length {
	return vg.Length(math.Max(float64(3*vg.Inch), float64(vg.Inch)+float64(rows)*float64(vg.Points(26))))
}
