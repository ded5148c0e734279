package compare

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/results/rundir"
)

// TestCompareBrokenRunDirectories: what a run directory lacks or holds
// broken is named in the output or the error, never a panic.
func TestCompareBrokenRunDirectories(t *testing.T) {
	good := fixRun(t, "good", fixTestbed, false, fixNormal(1, 100), fixSPP1(1, 120))
	odd := fixRun(t, "odd", fixTestbed, false, fixNormal(1, 100), fixSPP1(1, 120))
	c1 := filepath.Join(odd, rundir.CellsDir, "001-normal-64K_get-r1")
	c2 := filepath.Join(odd, rundir.CellsDir, "002-servers_per_port=1-64K_get-r1")
	for _, p := range []string{filepath.Join(c1, rundir.ConfsDir), filepath.Join(c2, rundir.RingPortsFile), filepath.Join(odd, rundir.TestbedFile)} {
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
	}
	cmpFile(t, filepath.Join(c1, rundir.RingPortsFile), "# ring\nnot a layout at all\n# ring object: x\nstor1\n")
	cmpFile(t, filepath.Join(c2, rundir.ConfsDir, "stor1", "etc/swift/object-server.conf"), "no section = here\n[broken\n")
	noOps := fixRun(t, "noops", fixTestbed, false)
	cmpFile(t, filepath.Join(noOps, rundir.SummaryFile), `{"cells": [{"variant": "normal", "workload": "64K_get", "status": "ok", "per_second": [5]}]}`)

	for _, tc := range []struct {
		a, b string
		want []string
	}{
		{odd + ":1", odd + ":2", []string{"not compared: " + filepath.Join(c1, rundir.ConfsDir) + ": no confs recorded",
			"not compared: open " + filepath.Join(c2, rundir.RingPortsFile)}},
		{good + ":2", odd + ":2", []string{"+no section = here", "+[broken"}},
		{good, odd, []string{"warning: only one run kept its testbed.hcl"}},
		{good, noOps, []string{"samples: none", "not compared: a cell has no id"}},
	} {
		c, err := Compare(mustSide(t, tc.a), mustSide(t, tc.b), CompareOptions{})
		if err != nil {
			t.Errorf("%s vs %s: %v", tc.a, tc.b, err)
			continue
		}
		var out bytes.Buffer
		if err := WriteComparison(&out, c, "text"); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s vs %s: output lacks %q:\n%s", tc.a, tc.b, w, out.String())
			}
		}
	}
	if _, err := OpenSide("", noOps+":1"); err == nil {
		t.Errorf("a cell without id found by number")
	}
	empty := t.TempDir()
	if _, err := OpenSide("", empty); err == nil || !strings.Contains(err.Error(), empty) {
		t.Errorf("empty directory: %v", err)
	}
}
