package decode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchbed/plan"
	"benchbed/plan/lang"
	"benchbed/plan/slo"
)

var autoTestbed = fixture("auto.hcl.tmpl")

// loadAuto loads the auto fixture with body added to workload "a" (its
// lines start at line 20 of auto.hcl).
func loadAuto(t *testing.T, body string) (*plan.Testbed, string) {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "broken", "put1.scenario"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "put1.scenario"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	tb, diags := LoadSource(filepath.Join(dir, "auto.hcl"), []byte(strings.Replace(autoTestbed, "%s", body, 1)), LoadOptions{})
	var b strings.Builder
	_ = lang.WriteDiagnostics(&b, nil, diags)
	return tb, b.String()
}

func TestSearchAndAutoDecode(t *testing.T) {
	tb, diags := loadAuto(t, `
  warmup     = "auto"
  max_warmup = "5m"
  repeat     = "auto"
  max_repeat = 6
  min_effect = "2%"
  search {
    slo        = { first_byte_p99 = "50ms", max_error_rate = "0.1%" }
    from       = 100
    to         = 20000
    probe      = "30s"
    resolution = "2%"
  }
  threshold {
    metric = "req/s"
    op     = "<"
    change = "-5%"
  }
  threshold {
    metric = "first_byte_p99"
    op     = ">"
    change = "+10%"
  }`)
	if diags != "" {
		t.Fatal(diags)
	}
	w := tb.Workloads[0]
	s := w.Search
	if s == nil || s.SLO.String() != "first_byte_p99<50ms,errors<0.1%" || s.From != 100 || s.To != 20000 ||
		s.Probe != 30*time.Second || s.Resolution != 0.02 {
		t.Fatalf("search %+v", s)
	}
	if w.Warmup == nil || !w.Warmup.Auto || w.Warmup.Max != 5*time.Minute || w.AutoRepeat == nil || w.AutoRepeat.Max != 6 || w.AutoRepeat.Effect != 0.02 {
		t.Errorf("warmup %+v, repeat %+v", w.Warmup, w.AutoRepeat)
	}
	want := []slo.Threshold{{Metric: "req/s", Op: "<", Change: -0.05}, {Metric: "first_byte_p99", Op: ">", Change: 0.1}}
	if len(w.Thresholds) != 2 || w.Thresholds[0].Threshold != want[0] || w.Thresholds[1].Threshold != want[1] {
		t.Errorf("thresholds %+v", w.Thresholds)
	}
	lines := strings.Join(w.AutoLines(), "\n")
	for _, part := range []string{"search: the highest rate from 100 to 20000 req/s meeting first_byte_p99<50ms,errors<0.1%, probes of 30s, resolution 2%",
		"warmup auto: until req/s and p99 per second are steady, at most 5m", "repeat auto: until compare's test separates the variants or finds no difference of 2% or more, at most 6 repeats",
		"threshold: fail if req/s < -5% (and significant)", "threshold: fail if first_byte_p99 > +10%"} {
		if !strings.Contains(lines, part) {
			t.Errorf("plan lines lack %q:\n%s", part, lines)
		}
	}
}

func TestDurationAutoDecode(t *testing.T) {
	tb, diags := loadAuto(t, `
  duration     = "auto"
  precision    = "1%"
  max_duration = "30m"
  warmup       = "45s"`)
	if diags != "" {
		t.Fatal(diags)
	}
	w := tb.Workloads[0]
	if a := w.AutoDuration; a == nil || a.Precision != 0.01 || a.Max != 30*time.Minute || w.Duration != 0 {
		t.Errorf("%+v %v", a, w.Duration)
	}
	if w.Warmup == nil || w.Warmup.Auto || w.Warmup.Duration != 45*time.Second {
		t.Errorf("warmup %+v", w.Warmup)
	}
	tb, _ = loadAuto(t, `duration = "auto"`)
	if a := tb.Workloads[0].AutoDuration; a == nil || a.Precision != plan.DefaultPrecision || a.Max != plan.DefaultMaxDuration {
		t.Errorf("defaults %+v", a)
	}
	if !strings.Contains(strings.Join(tb.Workloads[0].AutoLines(), "\n"), "duration auto: until req/s is known within 2% (95 % confidence, batch means), at most 1h") {
		t.Errorf("%q", tb.Workloads[0].AutoLines())
	}
}

func TestSearchAndAutoDiagnostics(t *testing.T) {
	search := func(extra string) string {
		return "search {\n slo = { first_byte_p99 = \"50ms\" }\n from = 10\n to = 100\n" + extra + "\n}"
	}
	for _, c := range []struct{ body, want string }{
		{`precision = "2%"`, "auto.hcl:20,1: Misplaced precision"},
		{`max_warmup = "1m"`, "auto.hcl:20,1: Misplaced max_warmup"},
		{"warmup = \"5s\"\nmax_warmup = \"1m\"", "auto.hcl:21,1: Misplaced max_warmup"},
		{`max_repeat = 4`, "auto.hcl:20,1: Misplaced max_repeat"},
		{`min_effect = "5%"`, "auto.hcl:20,1: Misplaced min_effect"},
		{"repeat = \"auto\"\nmin_effect = 0", "auto.hcl:21,14: Invalid value for min_effect"},
		{`repeat = 3`, "auto.hcl:20,10: Invalid value for repeat"},
		{"duration = \"auto\"\nprecision = 0", "auto.hcl:21,13: Invalid value for precision"},
		{"duration = \"auto\"\nmax_duration = \"0s\"", "auto.hcl:21,16: Invalid value for max_duration"},
		{`duration = "soon"`, "auto.hcl:20,12: Invalid value for duration"},
		{"search {\n slo = { first_byte_p99 = \"50ms\" }\n from = 100\n to = 10\n}", "auto.hcl:22,9: Invalid search range"},
		{"search {\n slo = { first_byte_p98 = \"50ms\" }\n from = 10\n to = 100\n}", "auto.hcl:21,8: Invalid SLO"},
		{"search {\n slo = { first_byte_p99 = \"fast\" }\n from = 10\n to = 100\n}", "is no latency"},
		{"search {\n slo = {}\n from = 10\n to = 100\n}", "an slo needs a limit"},
		{"search {\n from = 10\n to = 100\n}", "auto.hcl:20,8: Missing required argument"},
		{search(`resolution = "60%"`), "auto.hcl:24,14: Invalid value for resolution"},
		{search(`probe = "0s"`), "auto.hcl:24,9: Invalid value for probe"},
		{"rate = 50\n" + search(""), "auto.hcl:20,1: Conflicting rate"},
		{"duration = \"1m\"\n" + search(""), "auto.hcl:20,1: Conflicting duration"},
		{"fill { container_objects = 10 }\n" + search(""), "auto.hcl:21,1: Conflicting search"},
		{search("") + "\n" + search(""), "auto.hcl:26,1: Duplicate search block"},
		{"threshold {\n metric = \"reqs\"\n op = \"<\"\n change = \"-5%\"\n}", "auto.hcl:20,1: Invalid threshold"},
		{"threshold {\n metric = \"req/s\"\n op = \"<\"\n change = \"-5\"\n}", "threshold change \"-5\""},
		{"threshold {\n metric = \"req/s\"\n op = \"<\"\n}", "Missing required argument"},
	} {
		_, diags := loadAuto(t, c.body)
		if !strings.Contains(diags, c.want) {
			t.Errorf("%s:\n%s\nwant %q", c.body, diags, c.want)
		}
	}
}
