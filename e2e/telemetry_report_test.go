package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/results"
)

// checkTelemetryReport runs `benchbed report --out` and `benchbed compare`
// on a real sweep with telemetry: the text names each cell's bottleneck
// and busiest disk, each cell has its CPU and disk plots, the page shows
// them in Chromium, and compare gives the telemetry deltas beside the
// req/s. The report goes to the test's artefact directory (kept with go
// test -artifacts), to look at its plots.
func checkTelemetryReport(t *testing.T, lab *Env, run string, sum results.Summary) {
	t.Helper()
	out := t.ArtifactDir()
	if o, e, err := lab.Benchbed(t, "report", run, "--out", out); err != nil {
		t.Fatalf("report --out: %v\n%s\n%s", err, o, e)
	}
	t.Logf("report with telemetry: %s", out)
	text, err := os.ReadFile(filepath.Join(out, "report.txt"))
	must(t, err)
	var variants []string
	for _, c := range sum.Cells {
		variants = append(variants, c.Variant)
		for _, want := range []string{"Telemetry of " + c.ID, "bottleneck: " + c.Telemetry.Bottleneck,
			c.Telemetry.Busiest + " util %", "BUSIEST"} {
			if !strings.Contains(string(text), want) {
				t.Errorf("report.txt lacks %q", want)
			}
		}
		for _, name := range []string{"telemetry_cpu_" + c.ID + ".png", "telemetry_disks_" + c.ID + ".png"} {
			if _, err := os.Stat(filepath.Join(out, name)); err != nil {
				t.Errorf("plot %s: %v", name, err)
			}
		}
	}
	checkPageInChromium(t, out, variants)
	o, e, err := lab.Benchbed(t, "compare", run+":"+sum.Cells[0].Variant, run+":"+sum.Cells[1].Variant)
	if err != nil {
		t.Fatalf("compare: %v\n%s\n%s", err, o, e)
	}
	for _, want := range []string{"req/s", "telemetry (run phase)", "proxy1 CPU busy % (mean)", "busiest disk util % (mean)",
		"stor1 object-server CPU % of a core (mean)", "note: bottleneck: A "} {
		if !strings.Contains(o, want) {
			t.Errorf("compare's output lacks %q:\n%s", want, o)
		}
	}
	t.Logf("compare with telemetry:\n%s", o)
}
