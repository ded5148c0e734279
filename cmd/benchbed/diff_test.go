package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDiffSeedVariants(t *testing.T) {
	code, out, stderr := captureRun(t, "diff", seedFile, "normal", "servers_per_port=2")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (differ)\n%s\n%s", code, out, stderr)
	}
	for _, want := range []string{
		"stor1, stor2: /etc/swift/object-server.conf",
		"workers: 29 (",
		") -> 6 (",
		"servers_per_port: 0 (",
		") -> 2 (",
		"ring object: one port per host (6200) -> one port per disk from 6210",
		"stor1: d0..d31 6200 -> 6210..6241",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("diff lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "proxy1") {
		t.Errorf("the proxies do not change:\n%s", out)
	}
}

func TestDiffSameUnifiedAndErrors(t *testing.T) {
	if code, out, stderr := captureRun(t, "diff", seedFile, "normal", "normal"); code != 0 || out != "" {
		t.Fatalf("X X: exit %d\n%s\n%s", code, out, stderr)
	}
	code, out, _ := captureRun(t, "diff", "--unified", seedFile, "normal", "servers_per_port=2")
	if code != 1 || !strings.Contains(out, "-workers = 29\n+workers = 6\n") || !strings.Contains(out, "+stor1 192.168.201.61:6210/d0 100") {
		t.Fatalf("--unified: exit %d\n%s", code, out)
	}
	if code, _, stderr := captureRun(t, "diff", seedFile, "normal", "nope"); code != 2 || !strings.Contains(stderr, `no variant "nope"`) {
		t.Fatalf("unknown variant: exit %d\n%s", code, stderr)
	}
	if code, _, _ := captureRun(t, "diff", "no-such-file.hcl", "a", "b"); code != 2 {
		t.Fatalf("missing file: exit %d", code)
	}
	code, _, stderr := captureRun(t, "diff", seedFile, "normal", "threads_per_disk=1")
	if code != 1 || !strings.Contains(stderr, "threads_per_disk=1: stor1, stor2: /etc/swift/object-server.conf [app:object-server] threads_per_disk: removed in Swift 2.8.0") {
		t.Fatalf("the variant's new warning: exit %d\n%s", code, stderr)
	}
}

// TestDiffWorkloadVariants: diff notes the workloads that run on one of
// the two variants only (their variants), and its exit status stays the
// hosts' difference.
func TestDiffWorkloadVariants(t *testing.T) {
	src := labInlined(t)
	text := strings.Replace(string(src), "\nprefill {", `
workload "base" {
  scenario = "64K_get_lab.scenario"
  clients  = ["client1"]
  variants = ["normal", "servers_per_port"]
  auth {
    url  = "http://198.18.0.11:8080/auth/v1.0"
    user = "bench:bench"
    key  = var.auth_key
  }
}

prefill {`, 1)
	dir := t.TempDir()
	scen, err := os.ReadFile("../../testbeds/lab/64K_get_lab.scenario")
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(dir, "64K_get_lab.scenario"), scen)
	writeTestFile(t, filepath.Join(dir, "lab.hcl"), []byte(text))
	tb := filepath.Join(dir, "lab.hcl")
	code, out, stderr := captureRun(t, "diff", tb, "normal", "threads_per_disk=1")
	if code != 1 || !strings.Contains(stderr, `benchbed: note: workloads only on "normal" (their variants): "base"`) {
		t.Errorf("normal against threads_per_disk=1: exit %d\n%s\n%s", code, out, stderr)
	}
	code, _, stderr = captureRun(t, "diff", tb, "threads_per_disk=1", "threads_per_disk=1")
	if code != 0 || strings.Contains(stderr, "note:") {
		t.Errorf("X X: exit %d\n%s", code, stderr)
	}
	code, _, stderr = captureRun(t, "diff", tb, "normal", "servers_per_port=3")
	if code != 1 || strings.Contains(stderr, "note:") {
		t.Errorf("two variants of the same workloads: exit %d\n%s", code, stderr)
	}
}
