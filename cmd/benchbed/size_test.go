package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The size rule (issue 21): lines are `wc -l` of a package's non-test .go
// files.
const (
	maxPackageLines = 4000 // any package
	maxEngineLines  = 2500 // each of the engine's packages below
	minOneFileLines = 100  // a package of one file is at least this long, or folds into its concept
)

// enginePackages are orchestrate's successors, held to maxEngineLines.
var enginePackages = []string{"internal/cluster", "internal/sweep", "internal/agents", "internal/custody", "internal/setup"}

// packageLines is the number of lines of p's non-test .go files.
func packageLines(t *testing.T, p *goPackage) int {
	t.Helper()
	n := 0
	for _, f := range p.GoFiles {
		b, err := os.ReadFile(filepath.Join(p.Dir, f))
		if err != nil {
			t.Fatal(err)
		}
		n += bytes.Count(b, []byte("\n"))
	}
	return n
}

// sizeProblems returns what the size rule finds wrong with the package
// rel (its path inside the module) of lines lines in files files.
func sizeProblems(rel string, lines, files int) []string {
	var out []string
	max := maxPackageLines
	for _, e := range enginePackages {
		if rel == e {
			max = maxEngineLines
		}
	}
	if lines > max {
		out = append(out, fmt.Sprintf("%s: %d lines of non-test Go; at most %d", rel, lines, max))
	}
	if files == 1 && lines < minOneFileLines {
		out = append(out, fmt.Sprintf("%s: one file of %d lines; a package of one file has at least %d: fold it into its concept",
			rel, lines, minOneFileLines))
	}
	return out
}

// TestPackageSizes holds the size rule over every package `go list ./...`
// has: none over 4,000 lines, none of the engine's over 2,500, none of
// one file under 100.
func TestPackageSizes(t *testing.T) {
	for _, p := range modulePackages(listPackages(t)) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, modulePath), "/")
		if rel == "" {
			rel = "."
		}
		for _, e := range sizeProblems(rel, packageLines(t, p), len(p.GoFiles)) {
			t.Error(e)
		}
	}
}

// TestSizeProblems checks the rule's arithmetic on packages made up for it.
func TestSizeProblems(t *testing.T) {
	cases := []struct {
		rel          string
		lines, files int
		want         string // "" = no problem
	}{
		{"plan", 4000, 20, ""},
		{"plan", 4001, 20, "plan: 4001 lines of non-test Go; at most 4000"},
		{"internal/sweep", 2500, 20, ""},
		{"internal/sweep", 2501, 20, "internal/sweep: 2501 lines of non-test Go; at most 2500"},
		{"internal/sweep/summary", 2501, 5, ""},
		{"internal/setup", 3000, 9, "internal/setup: 3000 lines of non-test Go; at most 2500"},
		{"results/telemetry", 99, 1, "results/telemetry: one file of 99 lines; a package of one file has at least 100: fold it into its concept"},
		{"results/telemetry", 99, 2, ""},
		{"results/telemetry", 100, 1, ""},
	}
	for _, c := range cases {
		got := strings.Join(sizeProblems(c.rel, c.lines, c.files), "; ")
		if got != c.want {
			t.Errorf("sizeProblems(%s, %d, %d) = %q; want %q", c.rel, c.lines, c.files, got, c.want)
		}
	}
}
