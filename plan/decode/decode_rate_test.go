package decode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/plan/lang"
)

var rateTestbed = fixture("rate.hcl.tmpl")

func loadRate(t *testing.T, workload, sweep string) (*plan.Testbed, string) {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "broken", "put1.scenario"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "put1.scenario"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	tb, diags := LoadSource(filepath.Join(dir, "rate.hcl"), []byte(
		strings.Replace(strings.Replace(rateTestbed, "%s", workload, 1), "%s", sweep, 1)), LoadOptions{})
	var b strings.Builder
	_ = lang.WriteDiagnostics(&b, nil, diags)
	return tb, b.String()
}

func TestMaxErrorRate(t *testing.T) {
	tb, diags := loadRate(t, `"5%"`, "0.002")
	if diags != "" {
		t.Fatal(diags)
	}
	if got := tb.ErrorGate(tb.Workloads[0]); got != 0.05 {
		t.Errorf("workload a's gate %v, want 0.05", got)
	}
	if got := tb.ErrorGate(tb.Workloads[1]); got != 0.002 {
		t.Errorf("workload b's gate %v, want the sweep's 0.002", got)
	}
	for _, bad := range []struct{ w, s, want string }{
		{"2", "0.01", "rate.hcl:15,20: Invalid value for max_error_rate"},
		{`"150%"`, "0.01", "rate.hcl:15,20: Invalid value for max_error_rate"},
		{"0.01", "-0.5", "rate.hcl:30,26: Invalid value for max_error_rate"},
		{"0.01", "[1]", "rate.hcl:30,26: Invalid value for max_error_rate"},
	} {
		if _, diags := loadRate(t, bad.w, bad.s); !strings.Contains(diags, bad.want) {
			t.Errorf("workload %s, sweep %s: diagnostics\n%s\nwant %q", bad.w, bad.s, diags, bad.want)
		}
	}
}

func TestMaxErrorRateDefaultsToOnePercent(t *testing.T) {
	tb, diags := loadRate(t, "0.01", "0.01")
	if diags != "" {
		t.Fatal(diags)
	}
	tb.Sweep = defaultSweep()
	if got := tb.ErrorGate(tb.Workloads[1]); got != 0.01 {
		t.Errorf("default gate %v", got)
	}
}
