package report

import (
	"fmt"
	"image/color"
	"maps"
	"slices"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"benchbed/results"
	"benchbed/results/rundir"
	"benchbed/results/telemetry"
)

// runShade is the run phase's background in telemetry plots.
var runShade = color.RGBA{R: 222, G: 235, B: 247, A: 255}

// TelemetryCPUPlot draws each host's CPU busy percent over the cell's
// seconds, the run phase shaded.
func TelemetryCPUPlot(cell string, hosts []telemetry.HostSamples) (Chart, error) {
	var curves []Curve
	t0 := firstSample(hosts)
	for _, h := range hosts {
		if len(h.Samples) == 0 {
			continue
		}
		xys := make(plotter.XYs, len(h.Samples))
		for i, s := range h.Samples {
			xys[i] = plotter.XY{X: s.T.Sub(t0).Seconds(), Y: s.CPU.Busy}
		}
		curves = append(curves, Curve{Name: h.Host, XYs: xys})
	}
	return telemetryChart("CPU busy per host, "+cell, "CPU busy (% of all cores)", hosts, curves)
}

// TelemetryDiskPlot draws each disk's utilisation over the cell's
// seconds, the run phase shaded; no disk gives no curve.
func TelemetryDiskPlot(cell string, hosts []telemetry.HostSamples) (Chart, error) {
	var curves []Curve
	t0 := firstSample(hosts)
	for _, h := range hosts {
		for _, d := range diskNames(h.Samples) {
			var xys plotter.XYs
			dev := ""
			for _, s := range h.Samples {
				if v, ok := s.Disks[d]; ok {
					xys = append(xys, plotter.XY{X: s.T.Sub(t0).Seconds(), Y: v.Util})
					dev = v.Dev
				}
			}
			curves = append(curves, Curve{Name: h.Host + ":" + d + " (" + dev + ")", XYs: xys})
		}
	}
	return telemetryChart("Disk utilisation, "+cell, "utilisation (%)", hosts, curves)
}

// telemetryChart draws percent curves over the cell's seconds above the
// run phase's shade.
func telemetryChart(title, ylabel string, hosts []telemetry.HostSamples, curves []Curve) (Chart, error) {
	p := newPlot(title)
	p.X.Label.Text = "second of the cell (shaded: the run phase, which the tables summarise)"
	p.Y.Label.Text = ylabel
	var legend []LegendEntry
	if from, to, ok := runSpan(hosts); ok {
		shade, err := plotter.NewPolygon(plotter.XYs{{X: from, Y: 0}, {X: to, Y: 0}, {X: to, Y: 100}, {X: from, Y: 100}})
		if err != nil {
			return Chart{}, err
		}
		shade.Color, shade.LineStyle.Width = runShade, 0
		p.Add(shade)
		legend = append(legend, LegendEntry{Name: "run phase", Thumbs: []plot.Thumbnailer{shade}})
	}
	lines, err := addCurves(p, curves)
	p.Y.Min, p.Y.Max = 0, 100
	p.X.Min = 0
	return Chart{Plot: p, Legend: append(legend, lines...), Height: plotHeight * 3 / 4}, err
}

// firstSample is the time of the cell's first sample of any host.
func firstSample(hosts []telemetry.HostSamples) time.Time {
	var t0 time.Time
	for _, h := range hosts {
		if len(h.Samples) > 0 && (t0.IsZero() || h.Samples[0].T.Before(t0)) {
			t0 = h.Samples[0].T
		}
	}
	return t0
}

// runSpan is the run phase's start and end in seconds from the cell's
// first sample, over all hosts; ok is false without a run phase. A
// sample closes its interval (it covers the time since the sample
// before it), so the phase starts at the sample before its first one.
func runSpan(hosts []telemetry.HostSamples) (from, to float64, ok bool) {
	t0 := firstSample(hosts)
	for _, h := range hosts {
		for i, s := range h.Samples {
			if s.Phase != telemetry.PhaseRun {
				continue
			}
			start := s.T.Sub(t0).Seconds()
			if i > 0 {
				start = h.Samples[i-1].T.Sub(t0).Seconds()
			}
			if !ok || start < from {
				from = start
			}
			to, ok = max(to, s.T.Sub(t0).Seconds()), true
		}
	}
	return from, to, ok
}

// diskNames are the disks a host's samples name, sorted.
func diskNames(samples []telemetry.Sample) []string {
	names := map[string]bool{}
	for _, s := range samples {
		for d := range s.Disks {
			names[d] = true
		}
	}
	return slices.Sorted(maps.Keys(names))
}

// telemetryFigures draws each cell's CPU and disk plots from its
// telemetry samples; a cell whose summary has telemetry but whose samples
// are missing gets a notice.
func (r *Report) telemetryFigures() ([]Figure, error) {
	var out []Figure
	groups := r.kernelGroups()
	for _, c := range r.Run.Summary.Cells {
		hosts, err := r.Run.ReadTelemetry(&c)
		if err != nil {
			return nil, err
		}
		r.noteDropped(c, hosts)
		if len(hosts) == 0 {
			if c.Telemetry != nil {
				r.Notices = append(r.Notices, fmt.Sprintf("cell %s: telemetry summarised but no samples in %s/: no telemetry plot",
					cellName(c), rundir.TelemetryDir))
			}
			continue
		}
		for _, k := range []struct {
			name string
			plot func(string, []telemetry.HostSamples) (Chart, error)
		}{{"cpu", TelemetryCPUPlot}, {"disks", TelemetryDiskPlot}} {
			shown := hosts
			if k.name == "cpu" {
				shown = oneKernelOnce(groups, hosts)
			}
			ch, err := k.plot(cellName(c), shown)
			if err != nil {
				return nil, fmt.Errorf("cell %s: %s plot: %w", cellName(c), k.name, err)
			}
			if len(ch.Legend) == 0 || k.name == "disks" && !hasDisks(hosts) {
				continue
			}
			svg, png, err := Render(ch)
			if err != nil {
				return nil, fmt.Errorf("cell %s: %w", cellName(c), err)
			}
			out = append(out, Figure{Name: "telemetry_" + k.name + "_" + rundir.SafeName(cellName(c)),
				Title: ch.Plot.Title.Text, SVG: svg, PNG: png, Cell: cellName(c)})
		}
	}
	return out, nil
}

// hasDisks reports whether any host's samples have a disk.
func hasDisks(hosts []telemetry.HostSamples) bool {
	for _, h := range hosts {
		if len(diskNames(h.Samples)) > 0 {
			return true
		}
	}
	return false
}

// noteDropped says which hosts' agents dropped samples (their output was
// not read fast enough): their plots have gaps, their summary fewer
// samples.
func (r *Report) noteDropped(c results.Cell, hosts []telemetry.HostSamples) {
	for _, h := range hosts {
		n := 0
		for _, s := range h.Samples {
			n += s.Dropped
		}
		if n > 0 {
			r.Notices = append(r.Notices, fmt.Sprintf("cell %s: %s's telemetry agent dropped %d sample(s): its plot has gaps",
				cellName(c), h.Host, n))
		}
	}
}

// oneKernelOnce keeps one host of each kernel the hosts share, named
// after them all: one curve for one kernel's CPU.
func oneKernelOnce(groups []kernelGroup, hosts []telemetry.HostSamples) []telemetry.HostSamples {
	var present []string
	for _, h := range hosts {
		present = append(present, h.Host)
	}
	var out []telemetry.HostSamples
	for _, h := range hosts {
		if name, shown := shownHost(groups, h.Host, present); shown {
			out = append(out, telemetry.HostSamples{Host: name, Samples: h.Samples})
		}
	}
	return out
}
