package schedule

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan/decode"
)

// TestAutoSteps: a search workload's cell has a search step instead of
// its run, after its own auto warm-up; a duration = "auto" one a run that
// says when it stops; the estimate counts their longest.
func TestAutoSteps(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "testbeds", "lab", "lab.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ block, want, not string }{
		{`search {
    slo   = { first_byte_p99 = "50ms" }
    from  = 100
    to    = 1600
    probe = "3s"
  }
  warmup = "auto"
  max_warmup = "30s"
`, "    search          ", "    run             "},
		{"duration = \"auto\"\n  precision = \"5%\"\n  max_duration = \"2m\"\n", "until req/s is known within 5% (batch means), at most 2m0s", "    search"},
	} {
		text := strings.Replace(string(src), "\n  duration ", "\n  "+tc.block+"  # duration ", 1)
		tb, diags := decode.LoadSource(filepath.Join("..", "..", "testbeds", "lab", "auto.hcl"), []byte(text), decode.LoadOptions{})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		p := New(tb)
		var out strings.Builder
		if err := p.WriteText(&out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), tc.want) || strings.Contains(out.String(), tc.not) {
			t.Errorf("the plan lacks %q or has %q:\n%s", tc.want, tc.not, out.String())
		}
		if tb.Workloads[0].Search != nil && !strings.Contains(out.String(), "until req/s and p99 per second are steady, at most 30s") {
			t.Errorf("the plan lacks the auto warm-up:\n%s", out.String())
		}
	}
}
