package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan"
)

// TestSweepRefusesAuto: until the sweep runs them, a search block or an
// auto run is refused before any host is touched; thresholds pass.
func TestSweepRefusesAuto(t *testing.T) {
	src, err := os.ReadFile("../../testbeds/lab/lab.hcl")
	if err != nil {
		t.Fatal(err)
	}
	load := func(body string) *plan.Testbed {
		text := strings.Replace(string(src), "\n  duration ", "\n"+body+"\n  # duration ", 1)
		tb, diags := plan.LoadSource(filepath.Join("..", "..", "testbeds", "lab", "auto.hcl"), []byte(text), plan.LoadOptions{})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		return tb
	}
	tb := load("  search {\n    slo = { first_byte_p99 = \"50ms\" }\n    from = 10\n    to = 100\n  }\n  warmup = \"auto\"")
	err = refuseAuto(tb)
	if err == nil || !strings.Contains(err.Error(), `workload "64K_get" (a search block, its own warmup, at `) {
		t.Errorf("%v", err)
	}
	if err := refuseAuto(load("  threshold {\n    metric = \"req/s\"\n    op = \"<\"\n    change = \"-5%\"\n  }")); err != nil {
		t.Errorf("thresholds refused: %v", err)
	}
}
