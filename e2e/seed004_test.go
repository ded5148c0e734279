package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"benchbed/e2e/labkit"
	"benchbed/results"
	"benchbed/results/rundir"
)

// seedScale (BENCHBED_SEED004_FULL=1) runs seed004-lab.hcl as it is: the
// seed's 500 MB file, 5 s iperf3 runs and 3 repeats, for the table at the
// seed's scale (minutes, not seconds).
var seedScale = os.Getenv("BENCHBED_SEED004_FULL") == "1"

// TestSeed004: a sweep of testbeds/lab/seed004-lab.hcl at its shortest (a
// 32 MiB file, 1 s iperf3 runs, one repeat; seedScale: as it is): every cell is ok with a
// throughput above 0 MB/s from wget, curl and iperf3; the table has a row
// per variant and a column per tool; afterwards proxy1 is as the fresh lab
// had it: no /srv/nginx (the backup created it, the restore removes it) and
// neither nginx nor iperf3 listens (the sweep started them). It runs the
// sweep exactly as the testbed's header says, on the lab as up leaves it.
func TestSeed004(t *testing.T) {
	for _, c := range []string{"/usr/sbin/nginx", "iperf3", "wget", "curl"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Skipf("SKIP: seed004-lab needs %s on this machine (Debian: scripts/deps.sh installs it as root)", c)
		}
	}
	lab := Lab(t)
	tb := seed004Testbed(t, lab)
	if out, err := lab.SSH(t, "proxy1", "test ! -e /srv/nginx || echo /srv/nginx exists"); err != nil || out != "" {
		t.Fatalf("proxy1 is not as up leaves it (%v): %s", err, out)
	}
	t.Cleanup(func() { _, _ = lab.SSH(t, "proxy1", "rm -rf /srv/nginx /srv/www") })
	runs := t.TempDir()
	args := []string{"sweep", "--runs-dir", runs, "--var", "file_mb=32", "--var", "iperf_seconds=1", tb}
	if seedScale {
		args = []string{"sweep", "--runs-dir", runs, tb}
	}
	out, errOut, err := lab.Benchbed(t, args...)
	if err != nil {
		t.Fatalf("sweep: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	t.Logf("seed004-lab's table:\n%s", out)
	for _, want := range []string{"wget MB/s", "curl MB/s", "iperf3 MB/s", "sendfile on, warm cache", "sendfile on, cold cache",
		"sendfile off, warm cache", "sendfile off, cold cache"} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q", want)
		}
	}
	run := checkSeed004Summary(t, runs)
	for cell, want := range map[string]string{"-warm-wget-r1": "sendfile on;", "-warm-nosendfile-wget-r1": "sendfile off;"} {
		confs, _ := filepath.Glob(filepath.Join(run, "cells", "[0-9][0-9][0-9]"+cell, "confs", "proxy1", "srv", "nginx", "nginx.conf"))
		if len(confs) != 1 {
			t.Errorf("cells *%s: recorded nginx.conf %v, want one", cell, confs)
			continue
		}
		if b, err := os.ReadFile(confs[0]); err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s (%v) lacks %q:\n%s", confs[0], err, want, b)
		}
	}
	left, err := lab.SSH(t, "proxy1", "ls -A /srv/nginx 2>/dev/null; test ! -e /srv/nginx || echo /srv/nginx exists; ss -Hltn '( sport = :8004 or sport = :5201 )'")
	if err != nil || left != "" {
		t.Errorf("after the sweep proxy1 has (%v):\n%s\nwant no /srv/nginx (it had none), nothing listening on 8004 or 5201", err, left)
	}
}

// seed004Testbed copies seed004-lab.hcl with one repeat into a temporary
// directory and returns its path.
func seed004Testbed(t *testing.T, lab *Env) string {
	t.Helper()
	text, err := labkit.Inlined(filepath.Join(lab.Root, "testbeds", "lab", "seed004-lab.hcl"))
	must(t, err)
	src := []byte(text)
	re := regexp.MustCompile(`(?m)^(\s*repeat\s*=\s*)\d+`)
	if !re.Match(src) {
		t.Fatal("seed004-lab.hcl: no sweep.repeat to edit: the test needs updating")
	}
	if !seedScale {
		src = re.ReplaceAll(src, []byte("${1}1"))
	}
	p := filepath.Join(t.TempDir(), "seed004-lab.hcl")
	must(t, os.WriteFile(p, src, 0o644))
	return p
}

// checkSeed004Summary checks that the run's 12 cells a repeat (4
// variants, 3 tools) are ok with a throughput above 0 MB/s, and returns the run's directory.
func checkSeed004Summary(t *testing.T, runs string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(runs, "*", "*", rundir.SummaryFile))
	if len(files) != 1 {
		t.Fatalf("summaries under %s: %v, want one", runs, files)
	}
	sum := readSummary(t, filepath.Dir(files[0]))
	want := 12
	if seedScale {
		want = 36
	}
	if len(sum.Cells) != want {
		t.Fatalf("%d cells, want %d", len(sum.Cells), want)
	}
	for _, c := range sum.Cells {
		tp := c.Metrics["throughput"]
		if c.Status != results.StatusOK || tp.Unit != "MB/s" || tp.Value <= 0 {
			t.Errorf("cell %s: %s %s, throughput %+v; want ok and above 0 MB/s", c.ID, c.Status, c.Error, tp)
		}
	}
	return filepath.Dir(files[0])
}
