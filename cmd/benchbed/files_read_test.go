package main

import (
	"strings"
	"testing"
)

// TestCommandsSayFilesRead: validate and plan print the testbed's files in
// reading order (lab.hcl, then the lab's parts it includes), plan --json
// lists them, and diff says them on stderr, its stdout the diff alone.
func TestCommandsSayFilesRead(t *testing.T) {
	const lab = "../../testbeds/lab/lab.hcl"
	files := "files read: " + lab + ", ../../testbeds/lab/parts/netns.hcl, ../../testbeds/lab/parts/ssh.hcl, " +
		"../../testbeds/lab/parts/rings.hcl, ../../testbeds/lab/parts/swift.hcl, ../../testbeds/lab/parts/seed000.hcl\n"
	code, out, errOut := captureRun(t, "validate", lab)
	if code != exitOK || !strings.HasSuffix(out, files) {
		t.Errorf("validate: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = captureRun(t, "plan", lab)
	if code != exitOK || !strings.HasPrefix(out, "testbed lab: local lab: 64 KiB GETs, servers_per_port sweep (seed 000 at lab scale)\n"+files) {
		t.Errorf("plan: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = captureRun(t, "plan", "--json", lab)
	if code != exitOK || !strings.Contains(out, `"files": [`+"\n"+`    "`+lab+`",`) {
		t.Errorf("plan --json: exit %d\n%s", code, out)
	}
	code, out, errOut = captureRun(t, "diff", lab, "normal", "servers_per_port=1")
	if code != exitNo || !strings.Contains(errOut, "benchbed: "+files) || strings.Contains(out, "files read") {
		t.Errorf("diff: exit %d\n%s\n%s", code, out, errOut)
	}
}
