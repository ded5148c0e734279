package decode

import (
	"os"
	"path/filepath"
)

// fixture returns the text of testdata/fixtures/name, shared with the
// tests of the packages built on plan (plantest.Fixture).
func fixture(name string) string {
	b, err := os.ReadFile(filepath.Join("testdata", "fixtures", name))
	if err != nil {
		panic(err)
	}
	return string(b)
}
