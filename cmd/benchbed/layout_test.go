package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readmeLayout returns the folders the README's layout block lists (the
// first word of each of its lines that does not continue the line before),
// without their trailing slash, in the order listed.
func readmeLayout(t *testing.T, root string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "\n## Layout\n")
	if !ok {
		t.Fatal("README.md: no ## Layout section")
	}
	_, block, ok := strings.Cut(after, "```\n")
	block, _, closed := strings.Cut(block, "\n```")
	if !ok || !closed {
		t.Fatal("README.md: the Layout section has no ``` block")
	}
	var dirs []string
	for i, line := range strings.Split(block, "\n") {
		if line == "" || line[0] == ' ' {
			continue
		}
		word, _, _ := strings.Cut(line, " ")
		if !strings.HasSuffix(word, "/") {
			t.Errorf("README.md layout line %d: %q names no folder (a path ending in /)", i+1, word)
			continue
		}
		dirs = append(dirs, strings.TrimSuffix(word, "/"))
	}
	return dirs
}

// TestReadmeLayoutListsEveryPackage checks that the README's layout block
// has one line for each package `go list ./...` has (e2e and bench
// included), and no line for a folder that is neither a package nor an
// existing folder without Go files (testbeds/, bench/).
func TestReadmeLayoutListsEveryPackage(t *testing.T) {
	pkgs := listPackages(t)
	root := moduleRoot(t)
	listed := readmeLayout(t, root)
	var packages []string
	for _, p := range modulePackages(pkgs) {
		packages = append(packages, strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, modulePath), "/"))
	}
	seen := map[string]bool{}
	for _, d := range listed {
		if seen[d] {
			t.Errorf("README.md layout lists %s/ twice", d)
		}
		seen[d] = true
		if slices.Contains(packages, d) {
			continue
		}
		if fi, err := os.Stat(filepath.Join(root, d)); err != nil || !fi.IsDir() {
			t.Errorf("README.md layout lists %s/, which is no folder of the repository", d)
		}
		// A folder with Go files that go list does not have is listed wrongly too.
		if gos, _ := filepath.Glob(filepath.Join(root, d, "*.go")); len(gos) > 0 {
			t.Errorf("README.md layout lists %s/, whose Go files are no package of go list ./...", d)
		}
	}
	for _, p := range packages {
		if !seen[p] {
			t.Errorf("README.md layout has no line for package %s/", p)
		}
	}
}
