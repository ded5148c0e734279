package decode

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"benchbed/plan/lang"
)

// FuzzLoad feeds arbitrary text to the decoder: whatever it is, Load must
// not panic, must return a testbed, and the diagnostics must print
// (schedule's FuzzPlan prints the plan of whatever is valid). The seeds
// are the shipped and broken testbeds.
func FuzzLoad(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/broken/*.hcl")
	more, _ := filepath.Glob("../../testbeds/*.hcl")
	for _, p := range append(seeds, more...) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	// Relative paths (scenario files, file()) resolve next to the seeds.
	dir, err := filepath.Abs(filepath.Join("testdata", "broken"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		tb, diags := LoadSource(filepath.Join(dir, "fuzz.hcl"), src, LoadOptions{Vars: map[string]string{}})
		if tb == nil {
			t.Fatal("Load returned no testbed")
		}
		if err := lang.WriteDiagnostics(io.Discard, tb.Files, tb.MaskDiagnostics(diags)); err != nil {
			t.Fatal(err)
		}
		for _, d := range diags {
			if d.Summary == "" {
				t.Errorf("diagnostic without summary: %#v", d)
			}
		}
	})
}
