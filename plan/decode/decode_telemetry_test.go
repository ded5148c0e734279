package decode

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchbed/plan"
	"benchbed/plan/lang"
)

// loadTB loads text as tb.hcl in a new directory.
func loadTB(t *testing.T, text string) (*plan.Testbed, string) {
	t.Helper()
	dir := write(t, map[string]string{"tb.hcl": text})
	tb, diags := Load(filepath.Join(dir, "tb.hcl"), LoadOptions{})
	var msgs []string
	for _, d := range diags {
		msgs = append(msgs, lang.FormatDiagnostic(d))
	}
	return tb, strings.Join(msgs, "\n")
}

// served is the minimal testbed with its object role served.
var served = minimal + "service \"object-server\" { role = \"object\" }\nvariant \"v\" {}\n"

func TestTelemetryBlock(t *testing.T) {
	tb, diags := loadTB(t, served)
	if diags != "" || tb.Telemetry != (plan.Telemetry{Enabled: true, Interval: time.Second}) {
		t.Errorf("without a block: %+v %s", tb.Telemetry, diags)
	}
	tb, diags = loadTB(t, served+`telemetry {
  interval    = "500ms"
  drop_caches = true
  statsd      = true
}
`)
	want := plan.Telemetry{Enabled: true, Interval: 500 * time.Millisecond, DropCaches: true, Statsd: true}
	if got := tb.Telemetry; diags != "" || got.Enabled != want.Enabled || got.Interval != want.Interval ||
		!got.DropCaches || !got.Statsd || got.DefRange.Start.Line != strings.Count(served, "\n")+1 {
		t.Errorf("got %+v, want %+v after the variant (%s)", got, want, diags)
	}
	if rc := tb.StatsdReceiver(); rc == nil || rc.Name != "h1" {
		t.Errorf("statsd receiver %v, want h1 (the first client)", rc)
	}
}

// TestTelemetryBlockErrors: each mistake is reported at its file:line.
func TestTelemetryBlockErrors(t *testing.T) {
	base := strings.Replace(minimal, `roles   = ["object", "client"]`, `roles   = ["object"]`, 1) + "variant \"v\" {}\n"
	line := strings.Count(base, "\n") + 1 // the block's
	for _, c := range []struct{ block, want string }{
		{`telemetry { interval = "10ms" }`, fmt.Sprintf("tb.hcl:%d,24: Invalid value for interval", line)},
		{`telemetry { interval = "2h" }`, `between 100ms and 1m0s; got 2h0m0s`},
		{`telemetry { enabled = "yes" }`, fmt.Sprintf("tb.hcl:%d,23:", line)},
		{`telemetry { rate = 1 }`, fmt.Sprintf("tb.hcl:%d,13: Unsupported argument", line)},
		{"telemetry {}\ntelemetry {}", fmt.Sprintf("tb.hcl:%d,1: Duplicate telemetry block", line+1)},
		{`telemetry { statsd = true }`, fmt.Sprintf("tb.hcl:%d,1: No host for the statsd receiver", line)},
	} {
		_, diags := loadTB(t, base+c.block+"\n")
		if !strings.Contains(diags, c.want) {
			t.Errorf("%s: diagnostics\n%s\nwant %q", c.block, diags, c.want)
		}
	}
}
