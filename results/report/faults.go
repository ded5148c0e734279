package report

import (
	"fmt"
	"image/color"
	"maps"
	"slices"
	"strconv"
	"strings"

	"benchbed/results"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// faultCells are the cells with phases (a variant with fault blocks).
func (r *Report) faultCells() []results.Cell {
	var out []results.Cell
	for _, c := range r.Run.Summary.Cells {
		if c.Fault != nil {
			out = append(out, c)
		}
	}
	return out
}

// faultTables are a phase table per fault cell, then one table of every
// fault cell's degradation and recovery.
func (r *Report) faultTables() []table {
	cells := r.faultCells()
	if len(cells) == 0 {
		return nil
	}
	var out []table
	for _, c := range cells {
		out = append(out, PhaseTable(c))
	}
	return append(out, DegradationTable(cells))
}

// PhaseTable is cell c's ssbench-style row per phase (latencies in ms).
func PhaseTable(c results.Cell) table {
	fp := c.Fault
	t := table{Title: fmt.Sprintf("Phases of %s (fault %gs-%gs of the run; latencies in ms)", cellName(c), fp.StartS, fp.EndS),
		Header: []string{"phase", "seconds", "count", "req/s", "errors", "fb p50", "fb p95", "fb p99", "lb p50", "lb p95", "lb p99", "errors by cause"}}
	for _, p := range fp.Phases {
		o := p.Total
		t.Rows = append(t.Rows, []string{p.Name, fmt.Sprintf("%g-%g", p.StartS, p.EndS), strconv.FormatInt(o.Count, 10), f1(o.ReqPerS),
			strconv.FormatInt(o.Errors, 10), ms(o.FirstByte.P50), ms(o.FirstByte.P95), ms(o.FirstByte.P99),
			ms(o.LastByte.P50), ms(o.LastByte.P95), ms(o.LastByte.P99), causes(o.ErrorsBy)})
	}
	return t
}

// DegradationTable says per fault cell how much worse the during phase was
// than before, and when it recovered.
func DegradationTable(cells []results.Cell) table {
	t := table{Title: "Faults: degradation (during / before) and time to recover",
		Header: []string{"cell", "req/s", "fb p99", "lb p50", "lb p99", "error rate +", "recovery"}}
	for _, c := range cells {
		g, rec := c.Fault.Degradation, c.Fault.Recovery
		t.Rows = append(t.Rows, []string{cellName(c), Times(g.ReqPerS), Times(g.FirstByteP99), Times(g.LastByteP50), Times(g.LastByteP99),
			results.Percent(g.ErrorRateDelta), rec.Text() + fmt.Sprintf(" (band %s, %d s)", results.Percent(rec.Band), rec.WindowS)})
	}
	return t
}

// Times formats a ratio as "x2.50", "-" when there is none.
func Times(r float64) string {
	if r == 0 {
		return "-"
	}
	return "x" + strconv.FormatFloat(r, 'f', 2, 64)
}

// causes lists errors by cause, most frequent first.
func causes(by map[string]int64) string {
	keys := slices.Sorted(maps.Keys(by))
	slices.SortStableFunc(keys, func(a, b string) int { return int(by[b] - by[a]) })
	var out []string
	for _, k := range keys {
		out = append(out, fmt.Sprintf("%s=%d", k, by[k]))
	}
	return strings.Join(out, " ")
}

// faultShade is the fault window's color.
var faultShade = color.NRGBA{R: 230, G: 80, B: 60, A: 50}

// FaultPlots draws cell c's successful req/s and last-byte p99 per second,
// the fault window shaded.
func FaultPlots(c results.Cell) (rate, p99 Chart, err error) {
	fp := c.Fault
	var r, l plotter.XYs
	for _, s := range fp.Seconds {
		r = append(r, plotter.XY{X: float64(s.Index), Y: s.ReqPerS})
		if s.P99 > 0 {
			l = append(l, plotter.XY{X: float64(s.Index), Y: s.P99 * 1000})
		}
	}
	rate, err = shadedChart(fmt.Sprintf("%s: successful requests per second (fault shaded)", cellName(c)), "req/s", fp, Curve{Name: "req/s", XYs: r})
	if err != nil {
		return rate, p99, err
	}
	p99, err = shadedChart(fmt.Sprintf("%s: last-byte p99 per second (fault shaded)", cellName(c)), "ms", fp, Curve{Name: "p99 (ms)", XYs: l})
	return rate, p99, err
}

// shadedChart is one curve over the run's seconds with the fault window
// drawn as a band behind it.
func shadedChart(title, ylabel string, fp *results.FaultPhases, cv Curve) (Chart, error) {
	p := newPlot(title)
	p.X.Label.Text = "second of the run"
	p.Y.Label.Text = ylabel
	p.Y.Tick.Marker = plot.TickerFunc(plainTicks)
	top := 1.0
	for _, xy := range cv.XYs {
		top = max(top, xy.Y)
	}
	band, err := plotter.NewPolygon(plotter.XYs{{X: fp.StartS, Y: 0}, {X: fp.EndS, Y: 0}, {X: fp.EndS, Y: top * 1.05}, {X: fp.StartS, Y: top * 1.05}})
	if err != nil {
		return Chart{}, err
	}
	band.Color, band.LineStyle.Width = faultShade, 0
	p.Add(band)
	var legend []LegendEntry
	if len(cv.XYs) > 0 {
		if legend, err = addCurves(p, []Curve{cv}); err != nil {
			return Chart{}, err
		}
	}
	legend = append(legend, LegendEntry{Name: fmt.Sprintf("fault %gs-%gs", fp.StartS, fp.EndS), Thumbs: []plot.Thumbnailer{band}})
	p.Y.Min, p.Y.Max = 0, top*1.05
	return Chart{Plot: p, Legend: legend}, nil
}

// faultFigures renders the fault cells' per-second plots.
func (r *Report) faultFigures() ([]Figure, error) {
	var out []Figure
	for _, c := range r.faultCells() {
		rate, p99, err := FaultPlots(c)
		if err != nil {
			return nil, err
		}
		for _, x := range []struct {
			name string
			ch   Chart
		}{{"fault_req_per_s_" + c.ID, rate}, {"fault_p99_" + c.ID, p99}} {
			svg, png, err := Render(x.ch)
			if err != nil {
				return nil, fmt.Errorf("plot %s: %w", x.name, err)
			}
			out = append(out, Figure{Name: x.name, Title: x.ch.Plot.Title.Text, SVG: svg, PNG: png}) // with the run's plots: its title names the cell
		}
	}
	return out, nil
}
