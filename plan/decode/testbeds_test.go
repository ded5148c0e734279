package decode

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/plan/lang"
)

// TestShippedTestbedsValidate keeps every example under testbeds/ alive:
// each *.hcl (recursively) must load without errors, but for the labs'
// parts (under parts/), which the testbeds include: each of those must be
// read by one of them.
func TestShippedTestbedsValidate(t *testing.T) {
	root := filepath.Join("..", "..", "testbeds")
	var files []string
	parts := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case !de.IsDir() && strings.HasSuffix(p, ".hcl") && filepath.Base(filepath.Dir(p)) == "parts":
			parts[p] = true
		case !de.IsDir() && strings.HasSuffix(p, ".hcl"):
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testbeds found under ../testbeds")
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			tb, diags := Load(f, LoadOptions{})
			for _, d := range diags {
				t.Log(lang.FormatDiagnostic(d))
			}
			if diags.HasErrors() {
				t.Fatalf("%s does not validate", f)
			}
			if len(plan.Expand(tb)) == 0 {
				t.Fatalf("%s expands to no cells", f)
			}
			for _, s := range tb.Sources {
				delete(parts, s)
			}
		})
	}
	for p := range parts {
		t.Errorf("%s: no testbed includes it", p)
	}
}
