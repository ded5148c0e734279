package render_test

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"benchbed/plan"
	"benchbed/plan/decode"
	"benchbed/plan/lang"
	"benchbed/plan/render"
	"benchbed/plan/schedule"
)

// fuzzSeeds are the shipped testbeds and the pinned broken, hostile and
// secret-planting ones.
var fuzzSeeds = []string{"../../testbeds/*.hcl", "../../testbeds/*/*.hcl", "../decode/testdata/broken/*.hcl",
	"../decode/testdata/hostile/*.hcl", "../../cmd/benchbed/testdata/secrets/*.hcl"}

// FuzzDecodePlanRender feeds arbitrary text through everything validate,
// plan, render and diff do with a testbed, in process: decode (Load), the
// diagnostics as printed, and for a valid testbed the plan (text and
// JSON), the masked copy of the testbed, each of its first variants
// rendered, and the diff of the first against the others. None may panic
// or fail to print. make test runs it for a bounded time; go test runs
// the seeds.
func FuzzDecodePlanRender(f *testing.F) {
	for _, g := range fuzzSeeds {
		files, _ := filepath.Glob(g)
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			if len(b) < 64<<10 {
				f.Add(b)
			}
		}
	}
	// Relative paths (scenario files, templates, file()) resolve among
	// the shipped testbeds.
	dir, err := filepath.Abs(filepath.Join("..", "..", "testbeds"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		tb, diags := decode.LoadSource(filepath.Join(dir, "fuzz.hcl"), src, decode.LoadOptions{Vars: map[string]string{}})
		if tb == nil {
			t.Fatal("LoadSource returned no testbed")
		}
		if err := lang.WriteDiagnostics(io.Discard, tb.Files, tb.MaskDiagnostics(diags)); err != nil {
			t.Fatal(err)
		}
		_ = tb.MaskedSource(src)
		if diags.HasErrors() {
			return
		}
		p := schedule.New(tb)
		if err := p.WriteText(io.Discard); err != nil {
			t.Fatal(err)
		}
		if _, err := json.Marshal(p.JSON()); err != nil {
			t.Fatal(err)
		}
		renderVariants(t, tb)
	})
}

// renderVariants renders the testbed's first variants and diffs the first
// against each of the others; a template error is an answer, not a
// failure.
func renderVariants(t *testing.T, tb *plan.Testbed) {
	var first *render.Rendering
	for i, v := range tb.Variants {
		if i == 3 {
			break
		}
		r, err := render.Render(tb, v, render.Options{})
		if err != nil {
			continue
		}
		if first == nil {
			first = r
			continue
		}
		if err := render.DiffRenderings(first, r).WriteText(io.Discard, tb.Secrets()); err != nil {
			t.Fatal(err)
		}
		if err := render.WriteUnified(io.Discard, first, r, tb.Secrets()); err != nil {
			t.Fatal(err)
		}
	}
}
