package compare

import (
	"bytes"
	"strings"
	"testing"

	"benchbed/plan/slo"
)

func thresholds(t *testing.T, ss ...string) []slo.Threshold {
	t.Helper()
	var out []slo.Threshold
	for _, s := range ss {
		th, err := slo.ParseThreshold(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, th)
	}
	return out
}

// TestGateOnRepeats: two runs of four repeats each, B 10 % slower with a
// third more p99: the req/s and p99 gates fail (beyond and significant
// by the repeats' t interval), a looser one passes, and a last-byte gate
// reads the last-byte rows.
func TestGateOnRepeats(t *testing.T) {
	var a, b []fixCell
	for r := 1; r <= 4; r++ {
		a = append(a, fixNormal(r, 1000+float64(r)))
		slow := fixNormal(r, 900+float64(r))
		slow.p50 = 0.04
		b = append(b, slow)
	}
	c, _ := mustCompare(t, fixRun(t, "base", fixTestbed, false, a...), fixRun(t, "new", fixTestbed, false, b...))
	vs := Gate(c, All(thresholds(t, "req/s < -5%", "req/s < -20%", "first_byte_p99 > +10%", "last_byte_p50 > +50%")))
	if len(vs) != 4 {
		t.Fatalf("%d verdicts: %+v", len(vs), vs)
	}
	want := []struct {
		failed bool
		why    string
	}{
		{true, "req/s -10.0% beyond req/s < -5% and significant: 95% interval [-10.2%, -9.8%] (Welch's t over 4+4 repeats)"},
		{false, "req/s -10.0% within req/s < -20%"},
		{true, "first_byte_p99 +33.3% beyond first_byte_p99 > +10% and significant: 95% interval [+33.3%, +33.3%] (Welch's t over 4+4 repeats)"},
		{false, "last_byte_p50 +33.3% within last_byte_p50 > +50%"},
	}
	for i, w := range want {
		if vs[i].Failed != w.failed || vs[i].Why != w.why || vs[i].Op != "GET" || vs[i].Pair != "normal / 64K_get" {
			t.Errorf("verdict %d: %+v, want failed %v %q", i, vs[i], w.failed, w.why)
		}
	}
	if !Failed(vs) || Failed(vs[1:2]) {
		t.Error("Failed")
	}
	var out bytes.Buffer
	if err := WriteVerdicts(&out, vs); err != nil || !strings.Contains(out.String(), "  FAIL  normal / 64K_get: req/s -10.0% beyond") ||
		!strings.Contains(out.String(), "  ok    normal / 64K_get: req/s -10.0% within") {
		t.Errorf("%v\n%s", err, out.String())
	}
}

// TestGateNotSignificant: a change beyond the gate whose interval
// includes 0 (repeats overlapping) does not fail.
func TestGateNotSignificant(t *testing.T) {
	a := []fixCell{fixNormal(1, 1000), fixNormal(2, 800), fixNormal(3, 1100), fixNormal(4, 700)}
	b := []fixCell{fixNormal(1, 950), fixNormal(2, 750), fixNormal(3, 1000), fixNormal(4, 650)}
	c, _ := mustCompare(t, fixRun(t, "base", fixTestbed, false, a...), fixRun(t, "new", fixTestbed, false, b...))
	vs := Gate(c, All(thresholds(t, "req/s < -5%")))
	if len(vs) != 1 || vs[0].Failed || !vs[0].Beyond || vs[0].Significant || !strings.Contains(vs[0].Why, "includes 0 (Welch's t over 4+4 repeats): not failed") {
		t.Errorf("%+v", vs)
	}
}

// TestGateFailedSide: a side whose cells all failed fails every gate.
func TestGateFailedSide(t *testing.T) {
	base := fixRun(t, "base", fixTestbed, false, fixNormal(1, 1000))
	c, _ := mustCompare(t, base+":1", base+":1")
	c.Pairs[0].FailedB = true
	if vs := Gate(c, All(thresholds(t, "req/s < -5%"))); len(vs) != 1 || !vs[0].Failed || !strings.Contains(vs[0].Why, "a side failed") {
		t.Errorf("%+v", vs)
	}
}

// TestNWay: one baseline against two runs, one table.
func TestNWay(t *testing.T) {
	base := fixRun(t, "base", fixTestbed, false, fixNormal(1, 100), fixSPP1(1, 120))
	faster := fixRun(t, "faster", fixTestbed, false, fixNormal(1, 150), fixSPP1(1, 180))
	same := fixRun(t, "same", fixTestbed, false, fixNormal(1, 100), fixSPP1(1, 120))
	var cs []*Comparison
	for _, other := range []string{faster, same} {
		c, _ := mustCompare(t, base, other)
		cs = append(cs, c)
	}
	var out bytes.Buffer
	if err := WriteNWay(&out, cs, "markdown"); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"- baseline: ", "- faster: ", "- same: ", "|         faster |", "| normal / 64K_get ", "| servers_per_port=1 / 64K_get ",
		"150.0 (+50.0%)", "180.0 (+50.0%)", "100.0 (~)", "last-byte p99 (s)"} {
		if !strings.Contains(s, want) {
			t.Errorf("lacks %q:\n%s", want, s)
		}
	}
	if err := WriteNWay(&out, cs, "html"); err == nil {
		t.Error("html accepted")
	}
}

// TestCapacityCompared: cells that were capacity searches get a capacity
// row, tested over repeats, and a capacity gate reads it.
func TestCapacityCompared(t *testing.T) {
	var a, b, plain []fixCell
	for r := 1; r <= 4; r++ {
		x, y := fixNormal(r, 1000), fixNormal(r, 1000)
		x.capacity, y.capacity = 1500+float64(r), 1200+float64(r)
		a, b, plain = append(a, x), append(b, y), append(plain, fixNormal(r, 1000))
	}
	ra := fixRun(t, "base", fixTestbed, false, a...)
	c, out := mustCompare(t, ra, fixRun(t, "new", fixTestbed, false, b...))
	m := metric(t, c.Pairs[0], "GET", MetricCapacity)
	if m.A != 1502.5 || m.B != 1202.5 || m.Test == nil || !m.Test.Significant || !strings.Contains(out, "capacity at SLO (req/s)") {
		t.Fatalf("%+v\n%s", m, out)
	}
	vs := Gate(c, All(thresholds(t, "capacity < -10%")))
	if len(vs) != 1 || !vs[0].Failed || !strings.Contains(vs[0].Why, "capacity -20.0% beyond capacity < -10% and significant") {
		t.Errorf("%+v", vs)
	}
	c, _ = mustCompare(t, ra, fixRun(t, "plain", fixTestbed, false, plain...))
	if names := metricNames(c.Pairs[0]); names[0] == MetricCapacity {
		t.Errorf("a capacity row against cells without searches: %v", names)
	}
}

func metricNames(p Pair) []string {
	var out []string
	for _, oc := range p.Ops {
		for _, m := range oc.Metrics {
			out = append(out, m.Name)
		}
	}
	return out
}
