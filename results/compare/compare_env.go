package compare

import (
	"fmt"
	"maps"
	"slices"

	"benchbed/results/rundir"
	"benchbed/templates"
)

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

// readEnv reads the run's env/<host>.txt by host; a run without them
// gives none, an unreadable one is left out.
func readEnv(dir string) map[string]string {
	envs, _ := rundir.ReadEnv(dir)
	out := map[string]string{}
	for _, e := range envs {
		out[e.Host] = e.Text
	}
	return out
}
