package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRenderWritesHostFilesAndLayout(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := captureRun(t, "render", seedFile, "--variant", "servers_per_port=4", "--out", out, "--host", "stor1")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "stor1", "etc", "swift", "object-server.conf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"servers_per_port = 4", "workers = 6", "bind_ip = 192.168.201.61"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("object-server.conf lacks %q", want)
		}
	}
	layout, err := os.ReadFile(filepath.Join(out, "ring-layout.txt"))
	if err != nil || !strings.Contains(string(layout), "stor1 192.168.201.61:6241/d31 100") {
		t.Errorf("ring layout: %v\n%s", err, layout)
	}
	if _, err := os.Stat(filepath.Join(out, "proxy1")); !os.IsNotExist(err) {
		t.Errorf("--host stor1 wrote proxy1: %v", err)
	}
	if !strings.Contains(stderr, "threads_per_disk: removed in Swift 2.8.0") {
		t.Errorf("no warning about threads_per_disk:\n%s", stderr)
	}
}

func TestRenderMasksAndFails(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := captureRun(t, "render", seedFile, "--variant", "nope", "--out", out)
	if code != 2 || !strings.Contains(stderr, `no variant "nope"`) {
		t.Fatalf("unknown variant: exit %d\n%s", code, stderr)
	}
	code, _, stderr = captureRun(t, "render", seedFile, "--variant", "normal", "--out", out, "--var", "auth_key=VerySecretKey1")
	if code != 0 || strings.Contains(stderr, "VerySecretKey1") {
		t.Fatalf("exit %d, stderr leaks or fails:\n%s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "proxy1", "etc", "swift", "proxy-server.conf"))
	if err != nil || !strings.Contains(string(data), "user_bench1_bench1 = VerySecretKey1 .admin") {
		t.Fatalf("the proxy's file must hold the key for the host: %v", err)
	}
}

// TestRenderDefaultsToTheFirstVariant: without --variant, render writes
// the first variant's files (what setup sets up), the same as naming it.
func TestRenderDefaultsToTheFirstVariant(t *testing.T) {
	named, first := t.TempDir(), t.TempDir()
	if code, stdout, stderr := captureRun(t, "render", seedFile, "--variant", "normal", "--out", named); code != 0 {
		t.Fatalf("--variant normal: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr := captureRun(t, "render", seedFile, "--out", first)
	if code != 0 || !strings.Contains(stdout, `variant "normal": wrote `) {
		t.Fatalf("no --variant: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, f := range []string{filepath.Join("stor1", "etc", "swift", "object-server.conf"), "ring-layout.txt"} {
		a, errA := os.ReadFile(filepath.Join(named, f))
		b, errB := os.ReadFile(filepath.Join(first, f))
		if errA != nil || errB != nil || string(a) != string(b) {
			t.Errorf("%s: the first variant's differs from normal's (%v, %v)", f, errA, errB)
		}
	}
}
