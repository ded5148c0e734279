package e2e

import (
	"strings"
	"testing"

	"benchbed/e2e/labkit"
)

// demoSweep are lab.hcl's lines that make its sweep the demo's (three
// interleaved 8 s repeats after a 2 s warm-up) and what the tests' sweeps
// over lab.hcl run instead: one 20 s run a variant after a 5 s warm-up, as
// lab.hcl had before the demo's repeats (their edits and times assume it).
var demoSweep = [][2]string{
	{"  repeat     = 3\n  interleave = true\n", "  repeat     = 1\n"},
	{`  warmup     = "2s"`, `  warmup     = "5s"`},
	{`  duration          = "8s"`, `  duration          = "20s"`},
}

// labText is lab.hcl's text, its parts inlined, with one run a variant
// (demoSweep), the base of the tests' testbeds that sweep over the lab.
func labText(t *testing.T, lab *Env) string {
	t.Helper()
	s, err := labkit.Inlined(lab.Testbed)
	must(t, err)
	for _, r := range demoSweep {
		if !strings.Contains(s, r[0]) {
			t.Fatalf("%s lacks %q: the demo's sweep changed, update demoSweep", lab.Testbed, r[0])
		}
		s = strings.Replace(s, r[0], r[1], 1)
	}
	return s
}
