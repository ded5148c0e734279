package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/plan/decode"
)

// TestSweepRefusesAuto: until the sweep runs it, repeat = "auto" is
// refused before any host is touched; searches, auto runs and
// thresholds pass.
func TestSweepRefusesAuto(t *testing.T) {
	src, err := os.ReadFile("../../testbeds/lab/lab.hcl")
	if err != nil {
		t.Fatal(err)
	}
	load := func(body string) *plan.Testbed {
		text := strings.Replace(string(src), "\n  duration ", "\n"+body+"\n  # duration ", 1)
		tb, diags := decode.LoadSource(filepath.Join("..", "..", "testbeds", "lab", "auto.hcl"), []byte(text), decode.LoadOptions{})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		return tb
	}
	err = refuseAuto(load("  repeat = \"auto\""))
	if err == nil || !strings.Contains(err.Error(), `repeat = "auto" yet: workload "64K_get" (at `) {
		t.Errorf("%v", err)
	}
	if err := refuseAuto(load("  search {\n    slo = { first_byte_p99 = \"50ms\" }\n    from = 10\n    to = 100\n  }\n  warmup = \"auto\"")); err != nil {
		t.Errorf("a search refused: %v", err)
	}
	if err := refuseAuto(load("  duration = \"auto\"")); err != nil {
		t.Errorf("duration auto refused: %v", err)
	}
	if err := refuseAuto(load("  threshold {\n    metric = \"req/s\"\n    op = \"<\"\n    change = \"-5%\"\n  }")); err != nil {
		t.Errorf("thresholds refused: %v", err)
	}
}
