package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"benchbed/results"
	"benchbed/results/rundir"
)

// svgText parses an SVG as XML and returns its text content.
func svgText(t *testing.T, name string, b []byte) string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	var text strings.Builder
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return text.String()
		}
		if err != nil {
			t.Fatalf("%s is not XML: %v", name, err)
		}
		if cd, ok := tok.(xml.CharData); ok {
			text.Write(cd)
			text.WriteByte('\n')
		}
	}
}

func TestWriteDir(t *testing.T) {
	r, sum := loadFixture(t, fixture, true)
	out := filepath.Join(t.TempDir(), "report")
	files, err := r.WriteDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"report.html", "report.md", "report.txt", "report.csv", "report.json",
		"req_per_s.svg", "req_per_s.png", "req_per_s_over_time.svg", "first_byte_percentiles.svg", "first_byte_percentiles.png"} {
		if !slices.Contains(files, filepath.Join(out, name)) {
			t.Errorf("%s not written (wrote %v)", name, files)
		}
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// Every SVG parses and names the cells (or the variants, for the bars).
	for name, want := range map[string][]string{
		"req_per_s_over_time.svg":    {sum.Cells[0].ID, sum.Cells[3].ID},
		"first_byte_percentiles.svg": {sum.Cells[0].ID, sum.Cells[1].ID, sum.Cells[2].ID, sum.Cells[3].ID, "99.9%"},
		"req_per_s.svg":              {"normal", "a&b<i>", "broken (failed)", "mean ± 1 stddev"},
	} {
		text := svgText(t, name, read(name))
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s does not name %q:\n%s", name, w, text)
			}
		}
	}
	if strings.Contains(svgText(t, "spectrum", read("first_byte_percentiles.svg")), sum.Cells[4].ID) {
		t.Error("the failed cell without streams has a percentile curve")
	}
	if _, err := png.Decode(bytes.NewReader(read("first_byte_percentiles.png"))); err != nil {
		t.Errorf("PNG: %v", err)
	}
	// The failed cell has no streams: a notice, not a problem.
	if len(r.Problems) != 0 || len(r.Notices) != 1 || !strings.Contains(r.Notices[0], "005-broken") {
		t.Errorf("problems %q, notices %q", r.Problems, r.Notices)
	}
	page := string(read("report.html"))
	if strings.Contains(page, "<script") || strings.Contains(page, "a&b<i>") {
		t.Error("report.html holds user input unescaped")
	}
	inOrder(t, page, "<title>benchbed report: lab&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&amp;", "Started 2026-11-30T01:00:00Z",
		"normal #1", "time to first byte in ms", "Repeats (mean ± sample stddev", "<svg", "003-a&amp;b&lt;i&gt;-64K_get-r1", "</svg>", "Per operation", "<td>001-normal-64K_get-r1</td>",
		"Failed cells", "005-broken-64K_get-r1 (failed)", "did not answer | exit 1", "Environment of the hosts", "MemTotal",
		"Journal", "<td>preflight</td>", "<td>1.5</td>", "object-server &lt;did not&gt; start",
		"testbed.hcl (not shown here")
	for _, f := range files {
		if strings.Contains(string(read(filepath.Base(f))), secret) {
			t.Errorf("%s holds the testbed's secret", f)
		}
	}
	if n := strings.Count(page, "<svg"); n != 3 {
		t.Errorf("%d inline SVGs, want 3", n)
	}
}

func TestMissingAndBrokenStreams(t *testing.T) {
	cells := append([]fixCell(nil), fixture[:3]...)
	cells[1].noStreams = true
	dir, sum := makeRun(t, cells, true)
	broken := filepath.Join(dir, rundir.CellsDir, rundir.SafeName(cells[2].id), rundir.AgentsDir, "agent-0-client1.jsonl")
	f, err := os.OpenFile(broken, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("{not json\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	r, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	figs, err := r.Figures()
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Problems) != 2 || !strings.Contains(r.Problems[0], filepath.Join(sum.Cells[1].ID, rundir.AgentsDir)) ||
		!strings.Contains(r.Problems[0], "no agents' streams") || !strings.Contains(r.Problems[1], broken) {
		t.Fatalf("problems %q", r.Problems)
	}
	spectrum := svgText(t, "spectrum", figs[2].SVG)
	if strings.Contains(spectrum, cells[1].id) || !strings.Contains(spectrum, cells[0].id) || !strings.Contains(spectrum, cells[2].id) {
		t.Errorf("spectrum legend:\n%s", spectrum)
	}
}

func TestCellRecordingMatchesSummary(t *testing.T) {
	r, sum := loadFixture(t, fixture[:1], true)
	rec, err := r.CellRecording(sum.Cells[0])
	if err != nil {
		t.Fatal(err)
	}
	if got := results.Summarise(rec, fixDuration); got.Ops["GET"].FirstByte != sum.Cells[0].Ops["GET"].FirstByte {
		t.Fatalf("merged streams give %+v, summary says %+v", got.Ops["GET"].FirstByte, sum.Cells[0].Ops["GET"].FirstByte)
	}
	if _, err := r.CellRecording(results.Cell{Workload: "w"}); !errors.Is(err, rundir.ErrNoStreams) {
		t.Errorf("a cell without id: %v", err)
	}
}

func TestFirstByteSpectrum(t *testing.T) {
	rec := results.Recording{"GET": results.NewOpHists(), "PUT": results.NewOpHists()}
	for k := 1; k <= 10000; k++ { // 1..10000 us: q's latency is about q*10 ms
		op := []string{"GET", "PUT"}[k%2]
		rec[op].FirstByte.Record(time.Duration(k) * time.Microsecond)
	}
	pts := FirstByteSpectrum(rec)
	if len(pts) < 30 {
		t.Fatalf("%d points", len(pts))
	}
	if pts[0].Q != 0.5 || pts[0].Seconds < 0.00499 || pts[0].Seconds > 0.00501 {
		t.Errorf("first point %+v, want the median, 5 ms", pts[0])
	}
	last := pts[len(pts)-1]
	if last.Seconds < 0.00999 || 1/(1-last.Q) > 10000.0001 {
		t.Errorf("last point %+v, want the maximum at 1/(1-q) = 10000", last)
	}
	for i := 1; i < len(pts); i++ {
		if pts[i].Q <= pts[i-1].Q || pts[i].Seconds < pts[i-1].Seconds {
			t.Fatalf("points %d, %d: %+v, %+v not increasing", i-1, i, pts[i-1], pts[i])
		}
	}
	if FirstByteSpectrum(results.Recording{}) != nil {
		t.Error("an empty recording has a spectrum")
	}
}

func TestSafeSVG(t *testing.T) {
	for _, bad := range []string{`<svg><script>alert(1)</script></svg>`, `<svg><g onload="x()"/></svg>`,
		`<svg><a href="javascript:x()"/></svg>`, `<svg><text>unclosed</svg>`, `no svg here`} {
		if _, err := safeSVG([]byte(bad)); err == nil {
			t.Errorf("safeSVG accepted %s", bad)
		}
	}
	got, err := safeSVG([]byte(`<?xml version="1.0"?>` + "\n" + `<svg><text>a &amp; b</text></svg>`))
	if err != nil || got != `<svg><text>a &amp; b</text></svg>` {
		t.Errorf("safeSVG = %q, %v", got, err)
	}
}
