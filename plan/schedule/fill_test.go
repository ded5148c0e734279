package schedule

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan/decode"
)

// TestFillPlan: a fill workload's run has no duration (the scenario's
// run_seconds does not bound it), the plan says what ends it, and plan
// --json gives its target and buckets.
func TestFillPlan(t *testing.T) {
	tb, diags := decode.Load(filepath.Join("..", "..", "testbeds", "lab", "seed003-fill-lab.hcl"), decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	p := New(tb)
	for _, s := range p.Cells[0].Steps {
		if s.Kind == StepRun && s.Duration != 0 {
			t.Errorf("the fill run lasts %v", s.Duration)
		}
	}
	var text strings.Builder
	if err := p.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fill: 32 users until each container holds 20000 objects",
		"fill each container to 20000 objects, latency in 10 buckets", "fill: 32 users for 2s", "or a fill target"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the plan lacks %q:\n%s", want, text.String())
		}
	}
	b, err := json.Marshal(p.JSON())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"fill":{"container_objects":20000,"buckets":10}`) {
		t.Errorf("plan --json lacks the fill: %s", b)
	}
}
