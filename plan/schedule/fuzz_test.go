package schedule

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"benchbed/plan/decode"
	"benchbed/plan/plantest"
)

// FuzzPlan feeds arbitrary text to the decoder and plans whatever is
// valid: the plan must print. The seeds are the shipped testbeds.
func FuzzPlan(f *testing.F) {
	seeds, _ := filepath.Glob("../../testbeds/*.hcl")
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	dir, err := filepath.Abs(filepath.Join("..", "..", "testbeds"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		tb, diags := decode.LoadSource(filepath.Join(dir, "fuzz.hcl"), src, decode.LoadOptions{Vars: map[string]string{}})
		if diags.HasErrors() {
			return
		}
		p := New(tb)
		checkKinds(t, p)
		if err := p.WriteText(io.Discard); err != nil {
			t.Fatal(err)
		}
	})
}

// BenchmarkNewPlanSeed measures computing the seed lab's plan.
func BenchmarkNewPlanSeed(b *testing.B) {
	tb, diags := decode.Load(plantest.SeedFile, decode.LoadOptions{})
	if diags.HasErrors() {
		b.Fatal(diags.Error())
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		New(tb)
	}
}
