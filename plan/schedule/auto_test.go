package schedule

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan/decode"
)

// TestAutoPlan: `benchbed plan` shows a workload's search, auto runs and
// thresholds, in the text and in --json.
func TestAutoPlan(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "testbeds", "lab", "lab.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(src), "\n  duration ", `
  search {
    slo  = { first_byte_p99 = "50ms", max_error_rate = "0.1%" }
    from = 100
    to   = 3200
  }
  warmup = "auto"
  threshold {
    metric = "req/s"
    op     = "<"
    change = "-5%"
  }
  # duration `, 1)
	if text == string(src) {
		t.Fatal("lab.hcl's workload has no duration to replace")
	}
	tb, diags := decode.LoadSource(filepath.Join("..", "..", "testbeds", "lab", "auto.hcl"), []byte(text), decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	p := New(tb)
	checkKinds(t, p)
	var out strings.Builder
	if err := p.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"    search: the highest rate from 100 to 3200 req/s meeting first_byte_p99<50ms,errors<0.1%, probes of 20s, resolution 5%",
		"    warmup auto: until req/s and p99 per second are steady, at most 2m", "    threshold: fail if req/s < -5% (and significant)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the plan lacks %q:\n%s", want, out.String())
		}
	}
	b, err := json.Marshal(p.JSON())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"auto":["search: the highest rate from 100 to 3200`) {
		t.Errorf("plan --json lacks the search:\n%s", b)
	}
}
