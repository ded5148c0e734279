package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/results/rundir/rundirtest"
)

// faultReport loads a fixture run of the seed's two variants under one
// slow disk.
func faultReport(t *testing.T) (*Report, string) {
	t.Helper()
	dir := t.TempDir()
	if _, err := rundirtest.WriteFaultRun(dir, rundirtest.SeedFaultCells...); err != nil {
		t.Fatal(err)
	}
	r, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r, dir
}

func TestFaultPhaseTablesInTheText(t *testing.T) {
	r, _ := faultReport(t)
	var b bytes.Buffer
	if err := r.WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{
		"Phases of 001-normal-get-r1 (fault 10s-20s of the run; latencies in ms)",
		"Phases of 002-servers_per_port=4-get-r1",
		"Faults: degradation (during / before) and time to recover",
		"3 s after the undo (band 20%, 5 s)", "0 s after the undo",
		"http_503=40",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	deg := DegradationTable(r.faultCells())
	if len(deg.Rows) != 2 || deg.Rows[0][1] != "x0.20" || deg.Rows[1][1] != "x0.75" {
		t.Errorf("req/s degradation: %q", deg.Rows)
	}
}

func TestFaultPlotsShadeTheWindow(t *testing.T) {
	r, dir := faultReport(t)
	// The plots as WriteDir writes them (drawing them once: under the
	// race detector each drawing took seconds).
	out := filepath.Join(dir, "report")
	if _, err := r.WriteDir(out); err != nil {
		t.Fatal(err)
	}
	svgs, _ := filepath.Glob(filepath.Join(out, "fault_*.svg"))
	for _, f := range svgs {
		svg, err := os.ReadFile(f)
		png, perr := os.ReadFile(strings.TrimSuffix(f, ".svg") + ".png")
		if err != nil || perr != nil || len(svg) == 0 || len(png) == 0 {
			t.Errorf("%s: empty or missing (%v, %v)", f, err, perr)
		}
		if !bytes.Contains(svg, []byte("fault 10s-20s")) {
			t.Errorf("%s: no fault window in the legend", f)
		}
	}
	if len(svgs) != 4 {
		t.Errorf("fault plots: %v", svgs)
	}
	html, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil || !bytes.Contains(html, []byte("Phases of 001-normal-get-r1")) || !bytes.Contains(html, []byte("fault_p99_001-normal-get-r1")) {
		t.Errorf("report.html lacks the phase table or the plots (%v)", err)
	}
}

// TestFaultVerdictRowsByPhase checks that report.html's verdict table has
// a fault pair's row for each phase, the fault's own first, and not one
// verdict over a run whose level changes at the fault.
func TestFaultVerdictRowsByPhase(t *testing.T) {
	r, _ := faultReport(t)
	if r.Verdict == nil || len(r.Verdict.Blocks) != 1 {
		t.Fatalf("verdict: %+v", r.Verdict)
	}
	html := renderVerdict(t, r.Verdict)
	d, b, a := strings.Index(html, "<i>during the fault</i>"), strings.Index(html, "<i>before the fault</i>"), strings.Index(html, "<i>after the fault</i>")
	if d < 0 || b < d || a < b {
		t.Errorf("phase rows missing or out of order (during %d, before %d, after %d):\n%s", d, b, a, html)
	}
	if n := strings.Count(html, "<tr><td class=\"variant\">"); n != 3 {
		t.Errorf("%d rows, want 3 (one a phase):\n%s", n, html)
	}
}
