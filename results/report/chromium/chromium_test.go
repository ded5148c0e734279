package chromium

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// badPage has what the checks must catch: a console error, an image that
// does not load, an SVG text cut by its box; and one good figure.
const badPage = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body>
<figure id="good"><svg width="200" height="100" viewBox="0 0 200 100"><text x="10" y="50">inside</text></svg></figure>
<figure id="broken"><img alt="x" src="missing.png"></figure>
<figure id="cut"><svg width="200" height="100" viewBox="0 0 200 100"><text x="150" y="50">far outside the box</text></svg></figure>
<script>console.error("boom")</script>
</body></html>`

func TestBrowserCatchesErrors(t *testing.T) {
	exe := Find()
	if exe == "" {
		t.Skipf("SKIPPED: the browser checks are NOT tested: none of %v is on PATH (scripts/deps.sh installs chromium)", Names)
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "page.html")
	if err := os.WriteFile(page, []byte(badPage), 0o640); err != nil {
		t.Fatal(err)
	}
	b, err := Start(exe, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Open("file://" + page); err != nil {
		t.Fatal(err)
	}
	figs, err := b.Figures()
	if err != nil {
		t.Fatal(err)
	}
	problems := map[string]string{}
	for _, f := range figs {
		problems[f.ID] = strings.Join(f.Problems(), "\n")
	}
	if len(figs) != 3 || problems["good"] != "" || !strings.Contains(problems["broken"], "<img> is not shown") ||
		!strings.Contains(problems["cut"], `text "far outside the box"`) {
		t.Errorf("figures %+v, problems %q", figs, problems)
	}
	errs := strings.Join(b.Errors, "\n")
	if !strings.Contains(errs, "console.error") || !strings.Contains(errs, "boom") || !strings.Contains(errs, "missing.png") {
		t.Errorf("errors %q: want the console error and the image that failed to load", b.Errors)
	}
	png, err := b.Screenshot()
	if err != nil || len(png) < 8 || string(png[1:4]) != "PNG" {
		t.Errorf("screenshot: %d bytes, %v", len(png), err)
	}
}
