package plan

import (
	"testing"
)

func TestParseRate(t *testing.T) {
	for in, want := range map[string]float64{"1%": 0.01, "0.05": 0.05, "0": 0, "100%": 1, " 2.5 % ": 0.025} {
		if got, err := ParseRate(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	for _, bad := range []string{"5", "-1%", "x", "101%", "NaN"} {
		if _, err := ParseRate(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
