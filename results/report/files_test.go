package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"benchbed/results/rundir"
)

// TestReportSaysTestbedFiles: the text names the files the sweep read the
// testbed from (sweep.json's), after the run's line; a run whose
// sweep.json names none prints no such line.
func TestReportSaysTestbedFiles(t *testing.T) {
	dir, _ := makeRun(t, fixture, true)
	run, err := rundir.Open(dir, "lab")
	if err != nil {
		t.Fatal(err)
	}
	if err := run.WriteSweepInfo(rundir.SweepInfo{Testbed: "/x/lab.hcl", Name: "lab", Started: time.Now(),
		Files: []string{"testbeds/lab/lab.hcl", "testbeds/lab/parts/netns.hcl"}}); err != nil {
		t.Fatal(err)
	}
	r, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	inOrder(t, b.String(), "testbed ", "testbed files read: testbeds/lab/lab.hcl, testbeds/lab/parts/netns.hcl\n", "Time to first byte")

	r, _ = loadFixture(t, fixture, true)
	b.Reset()
	if err := r.WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "testbed files read") {
		t.Errorf("files named for a run whose sweep.json has none:\n%s", b.String())
	}
}
