package report

import (
	"bytes"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"

	"benchbed/results/report/chromium"
)

// firstScreen is the window a reader opens report.html in.
const firstScreenW, firstScreenH = 1280, 800

// openPage starts Chromium at the first screen's size on page; Close
// ends it.
func openPage(t *testing.T, exe, page string) *chromium.Browser {
	t.Helper()
	b, err := chromium.Start(exe, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Viewport(firstScreenW, firstScreenH); err != nil {
		b.Close()
		t.Fatal(err)
	}
	if err := b.Open("file://" + page); err != nil {
		b.Close()
		t.Fatal(err)
	}
	return b
}

// TestHTMLFirstScreen opens report.html of a lab run (six variants, their
// hosts' telemetry, hosts of one kernel) at 1280x800: the whole verdict,
// caveats included, is on the first screen and none of its lines is
// hidden sideways; with every <details> unfolded, no plot's legend entry
// has one of the plotted lines crossing it.
func TestHTMLFirstScreen(t *testing.T) {
	exe := findChromium(t)
	dir, _ := makeRun(t, labFixture(), true)
	writeEnvs(t, dir, labUname, fixTelemetryHosts...)
	r, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := t.ArtifactDir()
	if _, err := r.WriteDir(out); err != nil {
		t.Fatal(err)
	}
	b := openPage(t, exe, filepath.Join(out, "report.html"))
	defer b.Close()
	var v struct{ Top, Bottom, ScrollW, ClientW, Height float64 }
	if err := b.Eval(`(() => { const p = document.querySelector('div.verdict'); if (!p) return null;
	  const r = p.getBoundingClientRect();
	  return {Top: r.top, Bottom: r.bottom, ScrollW: p.scrollWidth, ClientW: p.clientWidth, Height: innerHeight}; })()`, &v); err != nil {
		t.Fatal(err)
	}
	if v.Height != firstScreenH || v.Bottom == 0 || v.Top < 0 || v.Bottom > firstScreenH {
		t.Errorf("the verdict spans y %.0f..%.0f of a first screen %.0f high: want all of it on the first screen", v.Top, v.Bottom, v.Height)
	}
	t.Logf("the verdict at y %.0f..%.0f of %.0f, %.0f px wide in %.0f", v.Top, v.Bottom, v.Height, v.ScrollW, v.ClientW)
	if v.ScrollW > v.ClientW {
		t.Errorf("the verdict's lines are %.0f px wide in a box of %.0f: hidden sideways", v.ScrollW, v.ClientW)
	}
	var unfolded bool
	if err := b.Eval(`(() => { document.querySelectorAll('details').forEach(d => d.open = true); return true; })()`, &unfolded); err != nil {
		t.Fatal(err)
	}
	checkLegendsClear(t, b, legendNames(r))
}

// legendNames are the entries the run's line plots have in their legends.
func legendNames(r *Report) []string {
	names := []string{"run phase"}
	for _, g := range r.kernelGroups() {
		names = append(names, g.Label())
	}
	for _, c := range r.Run.Summary.Cells {
		names = append(names, cellName(c))
		if c.Telemetry == nil {
			continue
		}
		for _, h := range c.Telemetry.Hosts {
			names = append(names, h.Host)
		}
		for _, d := range c.Telemetry.Disks {
			names = append(names, d.Host+":"+d.Disk+" ("+d.Dev+")")
		}
	}
	return names
}

// lineColours are the palette's colours as the browser computes a
// stroke's, without black, which the axes share.
func lineColours() []string {
	var out []string
	for _, c := range palette {
		if r, g, b, _ := c.RGBA(); r|g|b != 0 {
			out = append(out, fmt.Sprintf("rgb(%d, %d, %d)", r>>8, g>>8, b>>8))
		}
	}
	return out
}

// checkLegendsClear wants no line of the palette crossing a legend entry
// named in names, in any figure of the page.
func checkLegendsClear(t *testing.T, b *chromium.Browser, names []string) {
	t.Helper()
	covers, err := b.Covered(names, lineColours())
	if err != nil {
		t.Fatal(err)
	}
	figs, err := b.Figures()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figs {
		if f.ID != "req_per_s_over_time" && f.ID != "first_byte_percentiles" && !strings.HasPrefix(f.ID, "telemetry_") {
			continue
		}
		if !slices.ContainsFunc(f.Texts, func(x chromium.Text) bool { return slices.Contains(names, x.S) }) {
			t.Errorf("figure %s: none of its texts is a legend entry: the check would pass unseen", f.ID)
		}
	}
	for _, c := range covers {
		t.Errorf("figure %s: its legend entry %q is crossed by a plotted line at (%.0f, %.0f)", c.Figure, c.Name, c.X, c.Y)
	}
}

// The legend check fails a plot whose legend sits inside its axes over
// the lines, as gonum draws it by default: a check that cannot fail
// tests nothing.
func TestLegendCheckCanFail(t *testing.T) {
	exe := findChromium(t)
	zigzag := make(plotter.XYs, 60)
	for i := range zigzag {
		zigzag[i] = plotter.XY{X: float64(i), Y: float64(i % 2 * 100)}
	}
	p := newPlot("a legend over its lines")
	legend, err := addCurves(p, []Curve{{Name: "zigzag", XYs: zigzag}})
	if err != nil {
		t.Fatal(err)
	}
	p.Y.Max = 100 // its peaks at the frame's top, where the legend is
	p.Legend.Add("zigzag", legend[0].Thumbs...)
	p.Legend.Top = true
	p.Legend.TextStyle.Color = color.Black
	svg, _, err := Render(Chart{Plot: p})
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "bad.html")
	doc := `<!DOCTYPE html><html><body><figure id="bad">` + string(svg[bytes.Index(svg, []byte("<svg")):]) + `</figure></body></html>`
	if err := os.WriteFile(page, []byte(doc), 0o640); err != nil {
		t.Fatal(err)
	}
	b := openPage(t, exe, page)
	defer b.Close()
	covers, err := b.Covered([]string{"zigzag"}, lineColours())
	if err != nil {
		t.Fatal(err)
	}
	if len(covers) == 0 {
		t.Error("a legend drawn over a zigzag that crosses the whole plot is not reported")
	}
}
