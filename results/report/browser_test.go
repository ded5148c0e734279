package report

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"benchbed/results/report/chromium"
)

// findChromium returns Chromium's path, or skips the test loudly: the
// page is then not tested in a browser, which must not pass unnoticed.
func findChromium(t *testing.T) string {
	t.Helper()
	exe := chromium.Find()
	if exe == "" {
		t.Skipf("SKIPPED: report.html is NOT tested in a browser: none of %v is on PATH "+
			"(scripts/deps.sh installs Debian's chromium, as root)", chromium.Names)
	}
	return exe
}

// TestHTMLInChromium opens report.html, written from a crafted run of the
// lab's six variants with their hosts' telemetry, in headless Chromium:
// no console error, every plot loaded and shown with its text inside it,
// the bar chart's labels whole and apart, the line plots' legends below
// their axes, each cell's telemetry plots present. The screenshot is kept
// in the test's artefact directory (go test -artifacts keeps it; its path
// is logged).
func TestHTMLInChromium(t *testing.T) {
	exe := findChromium(t)
	r, _ := loadFixture(t, labFixture(), true)
	out := t.ArtifactDir()
	files, err := r.WriteDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var want []string // the figures written, by name
	for _, f := range files {
		if name, ok := strings.CutSuffix(filepath.Base(f), ".svg"); ok {
			want = append(want, name)
		}
	}
	shot := filepath.Join(out, "report-screenshot.png")
	page, err := chromium.Check(exe, t.TempDir(), "file://"+filepath.Join(out, "report.html"), shot)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot of report.html in %s: %s", exe, shot)
	for _, e := range page.Errors {
		t.Errorf("console error: %s", e)
	}
	figs := page.Figures
	var got []string
	for _, f := range figs {
		got = append(got, f.ID)
		for _, p := range f.Problems() {
			t.Error(p)
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("figures on the page %v, written %v", got, want)
	}
	var cells []string
	for _, c := range r.Run.Summary.Cells {
		cells = append(cells, cellName(c))
	}
	for _, f := range figs {
		switch f.ID {
		case "req_per_s":
			checkBarLabels(t, f, Bars(r.Run.Summary.Cells))
		case "req_per_s_over_time", "first_byte_percentiles":
			checkLegendBelow(t, f, cells)
		}
	}
	checkTelemetryFigures(t, figs, r)
}

// checkTelemetryFigures wants each cell with telemetry to show its CPU
// plot with a legend entry per host and its disk plot with one per disk,
// below the axes.
func checkTelemetryFigures(t *testing.T, figs []chromium.Figure, r *Report) {
	t.Helper()
	for _, c := range r.Run.Summary.Cells {
		if c.Telemetry == nil {
			continue
		}
		var hosts, disks []string
		for _, h := range c.Telemetry.Hosts {
			hosts = append(hosts, h.Host)
		}
		for _, d := range c.Telemetry.Disks {
			disks = append(disks, d.Host+":"+d.Disk+" ("+d.Dev+")")
		}
		for id, names := range map[string][]string{"telemetry_cpu_" + c.ID: hosts, "telemetry_disks_" + c.ID: disks} {
			i := slices.IndexFunc(figs, func(f chromium.Figure) bool { return f.ID == id })
			if i < 0 {
				t.Errorf("no figure %s on the page", id)
				continue
			}
			checkLegendBelow(t, figs[i], names)
		}
	}
}

// checkBarLabels wants each bar's label drawn whole, once, apart from the
// others.
func checkBarLabels(t *testing.T, f chromium.Figure, bars []Bar) {
	t.Helper()
	var boxes []chromium.Text
	for _, b := range bars {
		n := 0
		for _, x := range f.Texts {
			if x.S == b.Label {
				boxes = append(boxes, x)
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: bar label %q drawn %d times; texts %v", f.ID, b.Label, n, f.Texts)
		}
	}
	for i, a := range boxes {
		for _, b := range boxes[i+1:] {
			if chromium.Overlap(a, b) {
				t.Errorf("%s: bar labels %q and %q overlap: %v %v", f.ID, a.S, b.S, a, b)
			}
		}
	}
}

// checkLegendBelow wants each of names drawn once, below the x axis's
// label: a legend outside the curves.
func checkLegendBelow(t *testing.T, f chromium.Figure, names []string) {
	t.Helper()
	axis := -1.0
	for _, x := range f.Texts {
		if strings.HasPrefix(x.S, "second of the") || x.S == "percentile" {
			axis = x.Y + x.H
		}
	}
	if axis < 0 {
		t.Fatalf("%s: no x axis label among %v", f.ID, f.Texts)
	}
	for _, name := range names {
		n := 0
		for _, x := range f.Texts {
			if x.S != name {
				continue
			}
			n++
			if x.Y < axis {
				t.Errorf("%s: legend entry %q at y=%.0f is above the x axis's label (bottom y=%.0f): it may cover the curves",
					f.ID, x.S, x.Y, axis)
			}
		}
		if n != 1 {
			t.Errorf("%s: legend entry %q drawn %d times", f.ID, name, n)
		}
	}
}

// labFixture is a run of the lab's variants in their order: normal,
// threads_per_disk=1 and servers_per_port=1..4, one repeat each.
func labFixture() []fixCell {
	variants := []string{"normal", "threads_per_disk=1"}
	for n := 1; n <= 4; n++ {
		variants = append(variants, fmt.Sprintf("servers_per_port=%d", n))
	}
	var out []fixCell
	for i, v := range variants {
		id := fmt.Sprintf("%03d-%s-64K_get-r1", i+1, strings.ReplaceAll(v, "=", "_"))
		out = append(out, fixCell{id: id, variant: v, repeat: 1, status: "ok", base: 4 + float64(i), step: 0.01, n: 1000 + 300*i,
			telemetry: 0.6 + 0.1*float64(i)})
	}
	return out
}
