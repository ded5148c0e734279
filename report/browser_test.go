package report

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// chromiums are the names Chromium's executable goes by; Debian's
// package installs chromium.
var chromiums = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// findChromium returns Chromium's path, or skips the test loudly: the
// page is then not tested in a browser, which must not pass unnoticed.
func findChromium(t *testing.T) string {
	t.Helper()
	for _, name := range chromiums {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skipf("SKIPPED: report.html is NOT tested in a browser: none of %v is on PATH "+
		"(scripts/deps.sh installs Debian's chromium, as root)", chromiums)
	return ""
}

// pageFigure is what Chromium says of one <figure> of report.html: its
// plot's element and size, and the texts drawn in it with their boxes.
type pageFigure struct {
	ID       string     `json:"id"`
	Tag      string     `json:"tag"`
	X        float64    `json:"x"`
	Y        float64    `json:"y"`
	Width    float64    `json:"w"`
	Height   float64    `json:"h"`
	Natural  int        `json:"natural"` // an <img>'s naturalWidth, -1 for inline SVG
	Complete bool       `json:"complete"`
	Shown    bool       `json:"shown"`
	Texts    []svgLabel `json:"texts"`
}

// svgLabel is one <text> of an inline SVG and its box in CSS pixels.
type svgLabel struct {
	S string  `json:"s"`
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// figureCheck collects every figure's plot as Chromium lays it out.
const figureCheck = `Array.from(document.querySelectorAll('figure')).map(f => {
  const el = f.querySelector('svg, img');
  if (!el) return {id: f.id, tag: '', w: 0, h: 0, natural: 0, complete: false, shown: false, texts: []};
  const r = el.getBoundingClientRect(), st = getComputedStyle(el);
  const img = el.tagName === 'IMG';
  return {id: f.id, tag: el.tagName.toLowerCase(), x: r.x, y: r.y, w: r.width, h: r.height,
    natural: img ? el.naturalWidth : -1, complete: img ? el.complete : true,
    shown: st.display !== 'none' && st.visibility !== 'hidden' && r.width > 0 && r.height > 0,
    texts: Array.from(el.querySelectorAll('text')).map(x => {
      const b = x.getBoundingClientRect();
      return {s: x.textContent, x: b.x, y: b.y, w: b.width, h: b.height};
    })};
})`

// TestHTMLInChromium opens report.html, written from a crafted run of the
// lab's six variants with their hosts' telemetry, in headless Chromium:
// no console error, every plot loaded and shown with its text inside it,
// the bar chart's labels whole and apart, the line plots' legends below
// their axes, each cell's telemetry plots present. The screenshot is kept in the test's
// artefact directory (go test -artifacts keeps it; its path is logged).
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
	b := startBrowser(t, exe, t.TempDir())
	b.open(t, "file://"+filepath.Join(out, "report.html"))
	var figs []pageFigure
	b.eval(t, figureCheck, &figs)
	shot := filepath.Join(out, "report-screenshot.png")
	if err := os.WriteFile(shot, b.screenshot(t), 0o640); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot of report.html in %s: %s", exe, shot)
	for _, e := range b.Errors {
		t.Errorf("console error: %s", e)
	}
	var got []string
	for _, f := range figs {
		got = append(got, f.ID)
		if !f.Shown || f.Natural == 0 || !f.Complete {
			t.Errorf("figure %s: its <%s> is not shown (%.0fx%.0f px, naturalWidth %d, complete %v)",
				f.ID, f.Tag, f.Width, f.Height, f.Natural, f.Complete)
		}
	}
	for _, f := range figs {
		for _, x := range f.Texts {
			// A text's box is its font's line box, a little taller than its glyphs.
			const slack = 3
			if x.X < f.X-slack || x.Y < f.Y-slack || x.X+x.W > f.X+f.Width+slack || x.Y+x.H > f.Y+f.Height+slack {
				t.Errorf("figure %s: text %q (%.0f,%.0f %.0fx%.0f) is cut by its plot's box (%.0f,%.0f %.0fx%.0f)",
					f.ID, x.S, x.X, x.Y, x.W, x.H, f.X, f.Y, f.Width, f.Height)
			}
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
func checkTelemetryFigures(t *testing.T, figs []pageFigure, r *Report) {
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
			i := slices.IndexFunc(figs, func(f pageFigure) bool { return f.ID == id })
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
func checkBarLabels(t *testing.T, f pageFigure, bars []Bar) {
	t.Helper()
	var boxes []svgLabel
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
			if overlap(a, b) {
				t.Errorf("%s: bar labels %q and %q overlap: %v %v", f.ID, a.S, b.S, a, b)
			}
		}
	}
}

// checkLegendBelow wants each of names drawn once, below the x axis's
// label: a legend outside the curves.
func checkLegendBelow(t *testing.T, f pageFigure, names []string) {
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

func overlap(a, b svgLabel) bool {
	return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
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
