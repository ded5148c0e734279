package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// modulePath is the module's path, the prefix of every package of it.
const modulePath = "benchbed"

// roomLevels are the root folders holding Go packages ("rooms") in their
// layers, lowest first: a package may import only packages of its own
// room or of a room on a lower level (tests aside).
var roomLevels = map[string]int{
	"remote": 0, "templates": 0,
	"plan":     1,
	"results":  2,
	"load":     3,
	"internal": 4,
	"cmd":      5, "e2e": 5, "bench": 5,
}

// goPackage is what the arch tests read of `go list -json`.
type goPackage struct {
	ImportPath string
	Dir        string
	Standard   bool
	GoFiles    []string // the non-test .go files, in Dir
	Imports    []string // direct, tests excluded
	Deps       []string // transitive, tests excluded
}

// moduleRoot is the module's directory, two levels above this package's.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// listPackages runs `go list -deps -json ./...` in the module's root and
// returns every package it lists (the module's and their dependencies) by
// import path. Without the go tool the test is skipped, loudly.
func listPackages(t *testing.T) map[string]*goPackage {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("SKIP: no go tool on PATH; the package shape is not checked")
	}
	cmd := exec.Command(gobin, "list", "-deps", "-json", "./...")
	cmd.Dir = moduleRoot(t)
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]*goPackage{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := &goPackage{}
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs[p.ImportPath] = p
	}
	return pkgs
}

// ours reports whether path is a package of this module.
func ours(path string) bool {
	return path == modulePath || strings.HasPrefix(path, modulePath+"/")
}

// under reports whether path is the package dir (a path inside the module,
// "plan/scenario") or one below it.
func under(path, dir string) bool {
	p := modulePath + "/" + dir
	return path == p || strings.HasPrefix(path, p+"/")
}

// room is the root folder of one of the module's packages.
func room(path string) string {
	r, _, _ := strings.Cut(strings.TrimPrefix(path, modulePath+"/"), "/")
	return r
}

// modulePackages are the module's packages of pkgs, sorted.
func modulePackages(pkgs map[string]*goPackage) []*goPackage {
	var out []*goPackage
	for path, p := range pkgs {
		if ours(path) {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *goPackage) int { return strings.Compare(a.ImportPath, b.ImportPath) })
	return out
}

// TestPackageArrows holds the rules of the package tree that layers alone
// do not say.
func TestPackageArrows(t *testing.T) {
	pkgs := listPackages(t)
	mod := modulePackages(pkgs)
	// forbid fails for every package under dir that depends, directly or
	// not, on a package under one of the others.
	forbid := func(dir, why string, others ...string) {
		for _, p := range mod {
			if !under(p.ImportPath, dir) {
				continue
			}
			for _, d := range p.Deps {
				for _, o := range others {
					if under(d, o) {
						t.Errorf("%s depends on %s: %s", p.ImportPath, d, why)
					}
				}
			}
		}
	}
	forbid("plan", "the testbed language contacts no host and runs no load", "remote", "load")
	forbid("plan/lang", "the HCL evaluation knows no block of a testbed: it is below the model and its decoder", "plan")
	for _, p := range mod {
		if !under(p.ImportPath, "plan") || under(p.ImportPath, "plan/decode") || under(p.ImportPath, "plan/plantest") {
			continue
		}
		for _, d := range p.Deps {
			if under(d, "plan/decode") {
				t.Errorf("%s depends on %s: the model and its views are below the decoder that fills them", p.ImportPath, d)
			}
		}
	}
	forbid("results", "the results model touches no host and knows nothing of the sweep",
		"remote", "internal")
	forbid("internal/cluster", "the cluster is below setup, the sweep and the agents", "internal/setup", "internal/sweep", "internal/agents")
	forbid("internal/custody", "the hosts' custody is below the sweep, which takes its locks and backups", "internal/sweep")

	for _, p := range mod {
		for _, imp := range p.Imports {
			if under(imp, "internal/sweep") && !under(p.ImportPath, "cmd") && !under(p.ImportPath, "internal/sweep") {
				t.Errorf("%s imports %s: only cmd imports the sweep", p.ImportPath, imp)
			}
		}
	}

	for _, leaf := range []string{"results/telemetry", "plan/scenario"} {
		p := pkgs[modulePath+"/"+leaf]
		if p == nil {
			t.Errorf("no package %s/%s", modulePath, leaf)
			continue
		}
		for _, d := range p.Deps {
			if dp := pkgs[d]; dp == nil || !dp.Standard {
				t.Errorf("%s depends on %s: it imports only the standard library", p.ImportPath, d)
			}
		}
	}
}

// TestRoomsFormLayers checks that every root folder of the module's
// packages is a known room, that no package imports a room on a higher
// level or its own, and that the rooms' imports form no cycle.
func TestRoomsFormLayers(t *testing.T) {
	pkgs := listPackages(t)
	edges := map[string]map[string]string{} // room -> imported room -> an example arrow
	for _, p := range modulePackages(pkgs) {
		from := room(p.ImportPath)
		if _, ok := roomLevels[from]; !ok {
			t.Errorf("%s: root folder %s/ is no room of the layers (roomLevels)", p.ImportPath, from)
		}
		for _, imp := range p.Imports {
			to := room(imp)
			if !ours(imp) || to == from {
				continue
			}
			if edges[from] == nil {
				edges[from] = map[string]string{}
			}
			edges[from][to] = p.ImportPath + " -> " + imp
			lf, okf := roomLevels[from]
			lt, okt := roomLevels[to]
			if okf && okt && lt >= lf {
				t.Errorf("%s imports %s: room %s (level %d) may import only rooms below it, not %s (level %d)",
					p.ImportPath, imp, from, lf, to, lt)
			}
		}
	}
	if cycle := roomCycle(edges); cycle != nil {
		var arrows []string
		for i := range len(cycle) - 1 {
			arrows = append(arrows, edges[cycle[i]][cycle[i+1]])
		}
		t.Errorf("the rooms import each other in a circle %s: %s",
			strings.Join(cycle, " -> "), strings.Join(arrows, "; "))
	}
}

// roomCycle returns a cycle of the room graph (its first room repeated at
// its end), or nil when there is none.
func roomCycle(edges map[string]map[string]string) []string {
	const (
		unseen = iota
		open
		done
	)
	state := map[string]int{}
	var stack []string
	var visit func(r string) []string
	visit = func(r string) []string {
		state[r] = open
		stack = append(stack, r)
		for _, to := range slices.Sorted(maps.Keys(edges[r])) {
			switch state[to] {
			case open:
				i := slices.Index(stack, to)
				return append(slices.Clone(stack[i:]), to)
			case unseen:
				if c := visit(to); c != nil {
					return c
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[r] = done
		return nil
	}
	for _, r := range slices.Sorted(maps.Keys(edges)) {
		if state[r] == unseen {
			if c := visit(r); c != nil {
				return c
			}
		}
	}
	return nil
}
