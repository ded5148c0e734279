package schedule

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"benchbed/plan/decode"
	"benchbed/plan/plantest"
)

// TestPlanTelemetrySteps: telemetry off has no telemetry step; drop_caches
// drops the object hosts' caches after the warm-up, right before the run;
// the text says both.
func TestPlanTelemetrySteps(t *testing.T) {
	base := plantest.Fixture(t, "minimal.hcl") + `
service "object-server" { role = "object" }
variant "normal" {}
sweep { warmup = 5 }
`
	for _, c := range []struct {
		block string
		want  []string
		text  string
	}{
		{`telemetry { enabled = false }`, []string{"health:", "warmup:w", "run:w"}, ""},
		{`telemetry {
  interval    = "2s"
  drop_caches = true
}`, []string{"telemetry-start:", "warmup:w", "drop-caches:", "run:w", "telemetry:"},
			"telemetry-start an agent on h1 samples every 2s|drop-caches     page caches dropped (sync; echo 3 > /proc/sys/vm/drop_caches) on h1|" +
				"telemetry       the agents stopped; the run's samples summarised in the cell (CPU, disks, services, bottleneck) on h1"},
	} {
		p := New(plantest.Load(t, base+c.block+"\n", decode.LoadOptions{}, nil))
		checkKinds(t, p)
		got := kinds(p.Cells[0])
		if diff := cmp.Diff(c.want, got[len(got)-len(c.want):]); diff != "" || slices.Contains(got, "telemetry-start:") != (c.text != "") {
			t.Errorf("%s: steps %v (-want +got):\n%s", c.block, got, diff)
		}
		var b strings.Builder
		if err := p.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		for _, want := range strings.Split(c.text, "|") {
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s: the plan's text does not say %q:\n%s", c.block, want, b.String())
			}
		}
	}
}
