package schedule

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/plan/decode"
	"benchbed/plan/plantest"
)

// faultTestbed is plan's faults fixture with a healthy and a fault variant.
func faultTestbed(t *testing.T) *plan.Testbed {
	t.Helper()
	text := plantest.Fixture(t, "faults-base.hcl") + `
variant "normal" {}
variant "slow" {
  fault "pause" {
    hosts   = ["stor2"]
    service = "object-server"
    at      = 40
    for     = "end"
  }
  fault "slow_disk" {
    hosts            = ["stor1"]
    disks            = ["d1"]
    at               = 10
    for              = 20
    read_bytes_per_s = 1048576
  }
}
`
	path := filepath.Join(t.TempDir(), "tb.hcl")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	tb, diags := decode.Load(path, decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return tb
}

func TestFaultStepsAtTheirTimes(t *testing.T) {
	tb := faultTestbed(t)
	p := New(tb)
	checkKinds(t, p)
	if kinds := Kinds(p.Cells[0].Steps); slices.Contains(kinds, StepFaultProbe) || slices.Contains(kinds, StepFaultApply) {
		t.Errorf("a variant without faults has fault steps: %v", kinds)
	}
	steps := p.Cells[1].Steps
	var got []string
	for _, s := range steps {
		switch s.Kind {
		case StepFaultApply, StepFaultUndo:
			got = append(got, string(s.Kind)+" "+s.Fault.Kind+" "+s.At.String()+" "+strings.Join(s.Hosts, ","))
		case StepFaultProbe, StepFaultCheck, StepRun, StepHealth:
			got = append(got, string(s.Kind)+" "+strings.Join(s.Hosts, ","))
		}
	}
	want := []string{"health proxy1,stor1,stor2", "fault-probe stor2,stor1", "run client1",
		"fault-apply slow_disk 10s stor1", "fault-undo slow_disk 30s stor1", "fault-apply pause 40s stor2",
		"fault-undo pause 1m0s stor2", "fault-check stor2,stor1"}
	if !slices.Equal(got, want) {
		t.Errorf("steps:\n got %q\nwant %q", got, want)
	}
	var b strings.Builder
	if err := p.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, w := range []string{"fault-apply     at 10s into the run: slow_disk d1 on stor1 throttled to read 1 MiB/s for object-server; its undo journaled",
		"fault-undo      at 1m0s into the run: object-server resumed on stor2"} {
		if !strings.Contains(text, w) {
			t.Errorf("plan text lacks %q:\n%s", w, text)
		}
	}
	if steps[len(steps)-1].Kind == StepFaultCheck && tb.Telemetry.Enabled {
		t.Error("fault-check after the telemetry summary")
	}
}
