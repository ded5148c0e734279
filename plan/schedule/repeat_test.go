package schedule

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/plan/decode"
)

// TestRepeatAutoPlan: a repeat = "auto" workload plans the U test's
// minimum of repeats of each variant, and its rounds up to max_repeat
// follow with ids after the planned cells'; `benchbed plan` shows both,
// and the estimate with every round.
func TestRepeatAutoPlan(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "testbeds", "lab", "lab.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(src), "\n  duration ", "\n  repeat = \"auto\"\n  max_repeat = 6\n  duration ", 1)
	tb, diags := decode.LoadSource(filepath.Join("..", "..", "testbeds", "lab", "auto.hcl"), []byte(text), decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	p := New(tb)
	if n := len(tb.Variants); len(p.Cells) != 4*n || len(p.Rounds) != 2*n {
		t.Fatalf("%d variants: %d cells and %d round cells, want %d and %d", n, len(p.Cells), len(p.Rounds), 4*n, 2*n)
	}
	first := p.Rounds[0].Cell
	// Round 5 starts at the fifth variant (rounds rotate), round 6 at the sixth.
	if first.Repeat != 5 || first.Index != len(p.Cells)+1 || first.Variant != tb.Variants[4] || p.Rounds[1].Cell.Variant != tb.Variants[5] ||
		p.Rounds[2].Cell.Variant != tb.Variants[0] {
		t.Errorf("the first round's cells: %+v, %+v", first, p.Rounds[1].Cell)
	}
	if last := p.Rounds[len(p.Rounds)-1].Cell; last.Repeat != 6 || last.ID != "036-servers_per_port_3-64K_get-r6" {
		t.Errorf("the last round cell: %+v", last)
	}
	if all := AllCells(tb); len(all) != len(p.Cells)+len(p.Rounds) {
		t.Errorf("AllCells: %d", len(all))
	}
	if p.Estimate.MaxTotal <= p.Estimate.Total {
		t.Errorf("estimate %s, with every round %s", p.Estimate.Total, p.Estimate.MaxTotal)
	}
	var out strings.Builder
	if err := p.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`workload "64K_get": repeat auto, 4 repeats planned of each variant, up to 6 while compare's test has not decided`,
		"then rounds of repeat auto, each only while compare's test has not decided its pairs (12 cells at most",
		`  025-servers_per_port_3-64K_get-r5  variant "servers_per_port=3", workload "64K_get", repeat 5`, "if every round of repeat auto runs"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the plan lacks %q:\n%s", want, out.String())
		}
	}
	b, err := json.Marshal(p.JSON())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"auto_rounds":[{"id":"025-servers_per_port_3-64K_get-r5"`) || !strings.Contains(string(b), `"max_total_s":`) {
		t.Errorf("plan --json lacks the rounds")
	}
	fixed := New(mustLoad(t, string(src)))
	if len(fixed.Rounds) != 0 || fixed.Estimate.MaxTotal != fixed.Estimate.Total {
		t.Errorf("a fixed repeat plans %d round cells", len(fixed.Rounds))
	}
}

func mustLoad(t *testing.T, text string) *plan.Testbed {
	t.Helper()
	tb, diags := decode.LoadSource(filepath.Join("..", "..", "testbeds", "lab", "fixed.hcl"), []byte(text), decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return tb
}
