package prefill

import (
	"fmt"
	"testing"

	"benchbed/plan/scenario"
)

func newScenario(t testing.TB, containers int, sizes []scenario.Size, initial map[string]int) *scenario.Scenario {
	t.Helper()
	s := &scenario.Scenario{Name: "t", Sizes: sizes, InitialFiles: initial, RunSeconds: 1,
		CrudProfile: []float64{0, 1, 0, 0}, ContainerBase: "pf", ContainerCount: containers,
		ContainerConcurrency: 10, UserCount: 1}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	return s
}

// ssbenchOrder is the reference: ssbench's initial_jobs loop, written
// plainly, yielding (container, name).
func ssbenchOrder(s *scenario.Scenario) [][2]string {
	left := map[string]int{}
	next := map[string]int{}
	for k, v := range s.InitialFiles {
		left[k], next[k] = v, 1
	}
	var out [][2]string
	ci := 0
	for yielded := true; yielded; {
		yielded = false
		for _, z := range s.Sizes {
			if left[z.Name] > 0 {
				out = append(out, [2]string{s.ContainerName(ci % s.ContainerCount), fmt.Sprintf("%s_%06d", z.Name, next[z.Name])})
				ci++
				left[z.Name]--
				next[z.Name]++
				yielded = true
			}
		}
	}
	return out
}

func TestLayoutMatchesSsbench(t *testing.T) {
	sizes := []scenario.Size{{Name: "tiny", SizeMin: 1, SizeMax: 10}, {Name: "none", SizeMin: 5, SizeMax: 5},
		{Name: "small", SizeMin: 100, SizeMax: 100}, {Name: "big", SizeMin: 1000, SizeMax: 2000}}
	s := newScenario(t, 7, sizes, map[string]int{"tiny": 13, "small": 4, "big": 9})
	want := ssbenchOrder(s)
	l, err := NewLayout(s)
	if err != nil {
		t.Fatal(err)
	}
	if l.Total() != int64(len(want)) {
		t.Fatalf("Total = %d, want %d", l.Total(), len(want))
	}
	perContainer := map[string]int64{}
	for k, w := range want {
		o := l.At(int64(k))
		if l.Containers()[o.Container] != w[0] || o.Name != w[1] {
			t.Fatalf("At(%d) = %s/%s, want %s/%s", k, l.Containers()[o.Container], o.Name, w[0], w[1])
		}
		z := l.Class(o.Class)
		if o.Size < z.SizeMin || o.Size > z.SizeMax {
			t.Fatalf("%s: size %d outside [%d,%d]", o.Name, o.Size, z.SizeMin, z.SizeMax)
		}
		back, ok := l.Lookup(o.Name)
		if !ok || back != o {
			t.Fatalf("Lookup(%s) = %+v %v, want %+v", o.Name, back, ok, o)
		}
		perContainer[w[0]]++
	}
	for c, name := range l.Containers() {
		if l.InContainer(c) != perContainer[name] {
			t.Fatalf("InContainer(%d) = %d, want %d", c, l.InContainer(c), perContainer[name])
		}
	}
}

func TestLookupRejectsForeignNames(t *testing.T) {
	s := newScenario(t, 3, []scenario.Size{{Name: "64KiB", SizeMin: 65536, SizeMax: 65536}}, map[string]int{"64KiB": 1500000})
	l, _ := NewLayout(s)
	for _, n := range []string{"64KiB_1500001", "64KiB_000000", "64KiB_12345", "64KiB_0001234", "1MiB_000001", "64KiB", "x_abcdef", "64KiB_-00001"} {
		if o, ok := l.Lookup(n); ok {
			t.Errorf("Lookup(%q) = %+v, want not found", n, o)
		}
	}
	if o, ok := l.Lookup("64KiB_1000000"); !ok || o.Index != 1000000 || o.K != 999999 {
		t.Errorf("Lookup of a seven-digit index = %+v %v", o, ok)
	}
}

func TestSeedLayoutTenMillion(t *testing.T) {
	s := newScenario(t, 200, []scenario.Size{{Name: "64KiB", SizeMin: 65536, SizeMax: 65536}}, map[string]int{"64KiB": 10000000})
	l, _ := NewLayout(s)
	last := l.At(l.Total() - 1)
	if last.Name != "64KiB_10000000" || l.Containers()[last.Container] != "pf_000199_default_policy" {
		t.Fatalf("last object %+v in %s", last, l.Containers()[last.Container])
	}
	if n := l.ObjectsIn([]int{0, 1, 399, 400, -1}); n != 75000 {
		t.Fatalf("ObjectsIn = %d, want 3 units of 25,000", n)
	}
	if l.InContainer(0) != 50000 {
		t.Fatalf("InContainer(0) = %d", l.InContainer(0))
	}
}
