package plantest

import (
	"github.com/hashicorp/hcl/v2"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/plan/decode"
)

// SeedFile is the seed's lab, the testbed most tests plan and render.
var SeedFile = fromRoot("testbeds", "swiftstack-2015.hcl")

// fromRoot returns the path of a file of the module (its elements from the
// module's root), relative to the working directory when it can.
func fromRoot(elem ...string) string {
	_, self, _, _ := runtime.Caller(0)
	p := filepath.Join(append([]string{filepath.Dir(self), "..", ".."}, elem...)...)
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil {
		return rel
	}
	return p
}

// Fixture returns the text of plan/decode/testdata/fixtures/name: minimal.hcl (a
// small valid testbed to append blocks to), minimal-workload.hcl (the
// workload and client host every testbed needs), axis-base.hcl,
// axis-auth.hcl.part, put.scenario, rate.hcl.tmpl.
func Fixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(fromRoot("plan", "decode", "testdata", "fixtures", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// LoadSeed loads SeedFile and fails on any diagnostic but the warnings
// about the retired options its 2015 confs set (SeedRetired).
func LoadSeed(t testing.TB) *plan.Testbed {
	t.Helper()
	tb, diags := decode.Load(SeedFile, decode.LoadOptions{})
	for _, d := range diags {
		if d.Severity != hcl.DiagWarning || d.Summary != "Retired Swift option" {
			t.Fatalf("seed testbed: %s", diags.Error())
		}
	}
	return tb
}

// Load writes text as tb.hcl, beside the extra files (name -> text), in
// a new directory, loads it and fails on any error.
func Load(t testing.TB, text string, opts decode.LoadOptions, extra map[string]string) *plan.Testbed {
	t.Helper()
	dir := t.TempDir()
	extra = mapWith(extra, "tb.hcl", text)
	for name, s := range extra {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tb, diags := decode.Load(filepath.Join(dir, "tb.hcl"), opts)
	if diags.HasErrors() {
		t.Fatalf("Load: %s", diags.Error())
	}
	return tb
}

// LoadText loads text with the minimal workload appended, from a file
// named name, and fails on any error.
func LoadText(t testing.TB, name, text string) *plan.Testbed {
	t.Helper()
	return loadAs(t, name, text+Fixture(t, "minimal-workload.hcl"))
}

func loadAs(t testing.TB, name, text string) *plan.Testbed {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	tb, diags := decode.Load(path, decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatalf("%s: %s", name, diags.Error())
	}
	return tb
}

// mapWith returns a copy of m with k set to v.
func mapWith(m map[string]string, k, v string) map[string]string {
	out := map[string]string{k: v}
	for x, y := range m {
		out[x] = y
	}
	return out
}

// ShippedTestbeds returns every testbed under testbeds/ (recursively),
// leaving out the labs' parts: the files under a parts/ directory, which
// the testbeds include and which are not testbeds on their own.
func ShippedTestbeds(t testing.TB) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(fromRoot("testbeds"), func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == PartsDir:
			return fs.SkipDir
		case !d.IsDir() && strings.HasSuffix(p, ".hcl"):
			files = append(files, p)
		}
		return nil
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no testbeds under testbeds/: %v", err)
	}
	return files
}

// PartsDir names the directories of the labs' parts under testbeds/.
const PartsDir = "parts"
