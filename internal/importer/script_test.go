package importer

import (
	"os/exec"
	"testing"
)

// TestProbeScriptRunsHere runs the probe on this machine with sh (it only
// reads) and parses its output: the script is valid shell and every part
// it prints reads back.
func TestProbeScriptRunsHere(t *testing.T) {
	if _, err := exec.LookPath("ps"); err != nil {
		t.Skip("SKIP: no ps on this machine; the probe script is not run")
	}
	out, err := exec.Command("/bin/sh", "-c", probeScript).Output()
	if err != nil {
		t.Fatalf("probe script: %v\n%s", err, out)
	}
	f, err := ParseProbe("here", out)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Addrs) == 0 && f.DevicesDir == "" {
		t.Errorf("nothing read: %+v\n%s", f, out)
	}
	if f.DevicesDir == "" {
		t.Errorf("no devices directory in:\n%s", out)
	}
	t.Logf("version %q, %d confs, %d rings (%s), %d Swift processes", f.Version, len(f.Confs), len(f.Rings), f.RingError, len(f.Procs))
}
