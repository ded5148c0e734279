package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"benchbed/results/report/chromium"
)

// checkPageInChromium opens a real run's report.html in headless Chromium:
// no console error, every plot written is on the page, loaded and shown
// with its texts inside it, and the req/s bars name each variant once.
// The screenshot goes to the subtest's artefact directory (kept with go
// test -artifacts); without Chromium the subtest skips, saying so.
func checkPageInChromium(t *testing.T, out string, variants []string) {
	t.Run("ReportInChromium", func(t *testing.T) {
		exe := chromium.Find()
		if exe == "" {
			t.Skipf("SKIPPED: report.html is NOT checked in a browser: none of %v is on PATH (scripts/deps.sh installs chromium)", chromium.Names)
		}
		shot := filepath.Join(t.ArtifactDir(), "report-screenshot.png")
		page, err := chromium.Check(exe, t.TempDir(), "file://"+filepath.Join(out, "report.html"), shot)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot of report.html: %s", shot)
		for _, e := range page.Errors {
			t.Errorf("console error: %s", e)
		}
		figs := page.Figures
		svgs, _ := filepath.Glob(filepath.Join(out, "*.svg"))
		shown := map[string]bool{}
		for _, f := range figs {
			shown[f.ID] = true
			for _, p := range f.Problems() {
				t.Error(p)
			}
			if f.ID == "req_per_s" {
				checkBars(t, f, variants)
			}
		}
		for _, s := range svgs {
			if name := strings.TrimSuffix(filepath.Base(s), ".svg"); !shown[name] {
				t.Errorf("plot %s is not on the page (figures %v)", name, figs)
			}
		}
	})
}

// checkBars wants each variant named by exactly one text of the bars.
func checkBars(t *testing.T, f chromium.Figure, variants []string) {
	t.Helper()
	for _, v := range variants {
		n := 0
		for _, x := range f.Texts {
			if x.S == v {
				n++
			}
		}
		if n != 1 {
			t.Errorf("req/s bars: %q is drawn %d times; texts %v", v, n, f.Texts)
		}
	}
}
