package compare

import (
	"strings"
	"testing"
)

func TestNextRepeat(t *testing.T) {
	cases := []struct {
		name string
		a, b []float64
		more bool
		why  string
	}{
		{"too few", []float64{100, 101, 99}, []float64{120, 121, 119}, true, "3 of the 4 repeats"},
		{"separated", []float64{100, 101, 99, 100}, []float64{120, 121, 119, 120}, false, "separated (p=0.029 n=4)"},
		{"the same", []float64{100, 101, 99, 100.5}, []float64{100.2, 100.8, 99.4, 100.1}, false, "no difference of 5% or more"},
		{"noisy, undecided", []float64{100, 130, 80, 110}, []float64{95, 125, 70, 115}, true, "not separated yet"},
		{"noisy at the max", []float64{100, 130, 80, 110, 90, 120}, []float64{95, 125, 70, 115, 100, 105}, false, "max 6 repeats reached"},
	}
	for _, c := range cases {
		v := NextRepeat(c.a, c.b, 0.05, 0.05, 6)
		if v.More != c.more || !strings.Contains(v.Why, c.why) {
			t.Errorf("%s: %+v, want more %v and %q", c.name, v, c.more, c.why)
		}
	}
}
