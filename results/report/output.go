package report

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"benchbed/results/rundir"
)

// Figure is one rendered plot: its file name (without extension), title,
// SVG and PNG, and the cell it is of ("" for the whole run).
type Figure struct {
	Name  string
	Title string
	SVG   []byte
	PNG   []byte
	Cell  string
}

// Figures draws the report's plots: req/s over time per cell, the
// first-byte latency spectrum per cell (from the agents' merged
// histograms; a cell without streams is left out, with a notice, or a
// problem when the cell is ok) and req/s per cell with error bars over
// repeats.
func (r *Report) Figures() ([]Figure, error) {
	cells := r.Run.Summary.Cells
	var out []Figure
	add := func(name string, c Chart, err error) error {
		if err != nil {
			return err
		}
		svg, png, err := Render(c)
		if err != nil {
			return fmt.Errorf("plot %s: %w", name, err)
		}
		out = append(out, Figure{Name: name, Title: c.Plot.Title.Text, SVG: svg, PNG: png})
		return nil
	}
	p, err := BarPlot(Bars(cells))
	if err := add("req_per_s", p, err); err != nil {
		return nil, err
	}
	p, err = ThroughputPlot(cells)
	if err := add("req_per_s_over_time", p, err); err != nil {
		return nil, err
	}
	if series, err := FillSeriesOf(cells); err == nil && len(series) > 0 {
		p, err = FillPlot(series)
		if err := add("put_latency_by_fill", p, err); err != nil {
			return nil, err
		}
	}
	if curves := r.spectra(); len(curves) == 0 {
		r.Notices = append(r.Notices, "no cell has agents' histograms: no percentile plot")
	} else {
		p, err = SpectrumPlot("Time to first byte by percentile (agents' merged histograms)", curves)
		if err := add("first_byte_percentiles", p, err); err != nil {
			return nil, err
		}
	}
	faults, err := r.faultFigures()
	if err != nil {
		return nil, err
	}
	out = append(out, faults...)
	searches, err := r.searchFigures()
	if err != nil {
		return nil, err
	}
	out = append(out, searches...)
	tel, err := r.telemetryFigures()
	return append(out, tel...), err
}

// spectra reads each cell's agents' streams, one cell at a time (only the
// spectrum's points are kept), and notes the cells it cannot draw.
func (r *Report) spectra() []Curve {
	var curves []Curve
	for _, c := range r.Run.Summary.Cells {
		if c.Search != nil { // its probes' streams are under probes/; its plot is the search's
			continue
		}
		rec, err := r.CellRecording(c)
		if err != nil {
			msg := fmt.Sprintf("cell %s: %v", cellName(c), err)
			if errors.Is(err, rundir.ErrNoStreams) {
				msg += "; its latency curve is skipped"
			}
			if c.OK() {
				r.Problems = append(r.Problems, msg)
			} else {
				r.Notices = append(r.Notices, msg)
			}
		}
		if pts := FirstByteSpectrum(rec); len(pts) > 0 {
			curves = append(curves, SpectrumCurve(cellName(c), pts))
		}
	}
	return curves
}

// WriteDir writes the whole report into dir: report.html, each plot as
// SVG and PNG, and report.md, report.txt, report.csv and report.json.
// It returns the files written.
func (r *Report) WriteDir(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	figs, err := r.Figures()
	if err != nil {
		return nil, err
	}
	var written []string
	put := func(name string, data []byte) error {
		p := filepath.Join(dir, name)
		if err := rundir.WriteFileAtomic(p, data, 0o640); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		written = append(written, p)
		return nil
	}
	for _, f := range figs {
		if err := put(f.Name+".svg", f.SVG); err != nil {
			return written, err
		}
		if err := put(f.Name+".png", f.PNG); err != nil {
			return written, err
		}
	}
	for _, f := range []struct{ name, format string }{{"report.txt", FormatText}, {"report.md", FormatMarkdown},
		{"report.csv", FormatCSV}, {"report.json", FormatJSON}} {
		var b bytes.Buffer
		if err := r.WriteFormat(&b, f.format); err != nil {
			return written, err
		}
		if err := put(f.name, b.Bytes()); err != nil {
			return written, err
		}
	}
	var b bytes.Buffer
	if err := r.WriteHTML(&b, figs); err != nil {
		return written, err
	}
	return written, put("report.html", b.Bytes())
}
