package compare

import (
	"math"
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/results"
)

// rule is repeat = "auto"'s defaults at compare's alpha.
var rule = RepeatRule{Alpha: 0.05, Effect: 0.05, Power: 0.8, Max: 6}

func TestNextRepeat(t *testing.T) {
	moderate := []float64{1000, 1030, 970, 1010, 990, 1025, 975, 1005, 995, 1000}
	moderateB := []float64{1005, 975, 1020, 990, 1010, 980, 1000, 1030, 970, 1000}
	cases := []struct {
		name string
		a, b []float64
		rule RepeatRule
		kind string
		why  string
	}{
		{"too few", []float64{100, 101, 99}, []float64{120, 121, 119}, rule, VerdictMore, "3 of the 4 repeats"},
		{"separated", []float64{1000, 1002, 998, 1001}, []float64{1100, 1102, 1098, 1101}, rule, VerdictSeparated, "separated at p=0.0286 after 4 repeats"},
		// 0.3 % apart, a spread of 0.2 %: a 5 % change would have shown.
		{"equal", []float64{1000, 1003, 997, 1001}, []float64{1002, 998, 1001, 999}, rule, VerdictSame, "no difference of 5% or more at power 1.00 after 4 repeats"},
		// A spread of 2.5 %: four repeats cannot tell 5 % from nothing, ten can.
		{"moderate, 4 repeats", moderate[:4], moderateB[:4], rule, VerdictMore, "not separated yet"},
		{"moderate, 10 repeats", moderate, moderateB, RepeatRule{0.05, 0.05, 0.8, 10}, VerdictSame, "no difference of 5% or more at power "},
		{"noisy", []float64{1000, 700, 1300, 900}, []float64{1100, 800, 1200, 950}, rule, VerdictMore, "not separated yet"},
		{"noisy at the max", []float64{1000, 700, 1300, 900, 1200, 800}, []float64{1100, 800, 1200, 950, 700, 1250}, rule, VerdictMax, "max 6 repeats reached"},
		// The same noise with a power of 0.1 wanted is "no difference": the power is the rule's.
		{"noisy, low power wanted", []float64{1000, 700, 1300, 900}, []float64{1100, 800, 1200, 950}, RepeatRule{0.05, 0.05, 0.05, 6}, VerdictSame, "no difference"},
	}
	for _, c := range cases {
		v := NextRepeat(c.a, c.b, c.rule)
		if v.Kind != c.kind || v.More != (c.kind == VerdictMore) || !strings.Contains(v.Why, c.why) {
			t.Errorf("%s: %+v, want %s and %q", c.name, v, c.kind, c.why)
		}
	}
}

// TestTPower: the t test's power against the textbook figures (Cohen's
// tables, exact noncentral t): d = 1 with 17 a side is 0.807, d = 0.5
// with 64 a side 0.801, d = 0.8 with 26 a side 0.807.
func TestTPower(t *testing.T) {
	for _, c := range []struct{ d, n, want float64 }{{1, 17, 0.807}, {0.5, 64, 0.801}, {0.8, 26, 0.807}, {0, 20, 0.05}} {
		if got := TPower(c.d, c.n, c.n, 0.05); math.Abs(got-c.want) > 0.01 {
			t.Errorf("TPower(d=%g, n=%g) = %.3f, want %.3f", c.d, c.n, got, c.want)
		}
	}
	if p := PowerFor([]float64{5, 5, 5}, []float64{5, 5, 5}, 0.05, 0.05); p != 1 {
		t.Errorf("power of samples without spread: %g, want 1", p)
	}
	if p := PowerFor([]float64{5}, []float64{5, 6}, 0.05, 0.05); p != 0 {
		t.Errorf("power of a single repeat: %g, want 0", p)
	}
}

// TestMinAutoRepeat: the plan's minimum of repeat = "auto" is what the U
// test needs at alpha 0.05.
func TestMinAutoRepeat(t *testing.T) {
	if n := RepeatsNeeded(0.05); n != plan.MinAutoRepeat {
		t.Errorf("the U test needs %d repeats at 0.05, the plan plans %d", n, plan.MinAutoRepeat)
	}
}

// TestRepeatStops: the pairs are the first variant against each other,
// the samples the finished cells' req/s (a search's capacity); failed
// repeats count as run, not as samples, and at the max an undecided pair
// is "max".
func TestRepeatStops(t *testing.T) {
	cell := func(v string, x float64, ok bool) results.Cell {
		c := results.Cell{Variant: v, Workload: "w", Status: results.StatusOK, Total: results.OpSummary{ReqPerS: x}}
		if !ok {
			c.Status = "failed"
		}
		return c
	}
	var cells []results.Cell
	for i, x := range []float64{1000, 700, 1300, 900, 1200, 800} {
		cells = append(cells, cell("a", x, true), cell("b", x+50, i < 4))
		c := cell("c", 0, true)
		c.Search = &results.SearchResult{Capacity: 2000 + float64(i)}
		cells = append(cells, c, results.Cell{Variant: "a", Workload: "other", Status: results.StatusOK})
	}
	st := RepeatStops(cells, "w", rule)
	if len(st) != 2 || st[0].Variant != "b" || st[0].Baseline != "a" || st[0].Repeats != 6 || st[0].Measured != 4 ||
		st[0].Kind != VerdictMax || !strings.HasPrefix(st[0].Stopped, "max 6 repeats reached") {
		t.Errorf("a against b: %+v", st)
	}
	if len(st) == 2 && (st[1].Variant != "c" || st[1].Kind != VerdictSeparated) {
		t.Errorf("a against c (capacities of 2000 and more): %+v", st[1])
	}
	if one := RepeatStops(cells, "other", rule); len(one) != 1 || one[0].Kind != "alone" || one[0].Repeats != 6 {
		t.Errorf("a single variant: %+v", one)
	}
	if none := RepeatStops(cells, "none", rule); none != nil {
		t.Errorf("no cells: %+v", none)
	}
}
