package compare

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"benchbed/templates"
)

// EnvDir holds a run's host environments, env/<host>.txt.
const EnvDir = "env"

// maxEnvLines bounds the changed environment lines shown.
const maxEnvLines = 40

// envDiff returns what changed in the hosts' recorded environments
// (kernel, CPU, memory, disks, Swift and Python versions, limits, sysctl)
// between two runs: "stor1: -swift 2.30.1", "stor1: +swift 2.31.0", or
// "stor1: only in A"; nil when they are the same.
func envDiff(dirA, dirB string) []string {
	a, b := readEnv(dirA), readEnv(dirB)
	hosts := slices.Sorted(maps.Keys(a))
	for h := range b {
		if _, ok := a[h]; !ok {
			hosts = append(hosts, h)
		}
	}
	slices.Sort(hosts)
	var out []string
	for _, h := range hosts {
		ta, inA := a[h]
		tb, inB := b[h]
		switch {
		case !inA:
			out = append(out, h+": only in B")
		case !inB:
			out = append(out, h+": only in A")
		case ta != tb:
			for _, l := range changedLines(templates.Unified("A", "B", ta, tb)) {
				out = append(out, h+": "+l)
			}
		}
	}
	if n := len(out); n > maxEnvLines {
		out = append(out[:maxEnvLines], fmt.Sprintf("... %d more changed lines", n-maxEnvLines))
	}
	return out
}

// readEnv reads env/<host>.txt; a run without them gives none.
func readEnv(dir string) map[string]string {
	paths, _ := filepath.Glob(filepath.Join(dir, EnvDir, "*.txt"))
	out := map[string]string{}
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			out[strings.TrimSuffix(filepath.Base(p), ".txt")] = string(b)
		}
	}
	return out
}
