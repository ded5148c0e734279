package results

import (
	"fmt"
	"math"
	"testing"
)

func TestNewSpread(t *testing.T) {
	s := NewSpread([]float64{2, 4, 4, 4, 5, 5, 7, 9})
	// Sample stddev of this classic set: sqrt(32/7).
	if s.Mean != 5 || s.Min != 2 || s.Max != 9 || math.Abs(s.StdDev-math.Sqrt(32.0/7)) > 1e-12 || math.Abs(s.CV-s.StdDev/5) > 1e-12 {
		t.Errorf("spread %+v", s)
	}
	if one := NewSpread([]float64{3}); one != (Spread{Mean: 3, Min: 3, Max: 3}) {
		t.Errorf("one value: %+v", one)
	}
	if none := NewSpread(nil); none != (Spread{}) {
		t.Errorf("none: %+v", none)
	}
}

func TestGroups(t *testing.T) {
	cells := []Cell{{Variant: "a", Workload: "w", Repeat: 1}, {Variant: "a", Workload: "w", Repeat: 2},
		{Variant: "b", Workload: "w", Repeat: 1}, {Variant: "a", Workload: "x", Repeat: 1}, {Variant: "b", Workload: "w", Repeat: 2}}
	if got := fmt.Sprint(Groups(cells)); got != "[[0 1] [2 4] [3]]" {
		t.Errorf("Groups = %s", got)
	}
	if Groups(nil) != nil {
		t.Error("no cells, some group")
	}
}
