package main

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPreflightReportsUnreachableHosts: a host whose port is closed fails
// preflight with exit 1 and a table row naming it.
func TestPreflightReportsUnreachableHosts(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	dir := t.TempDir()
	key := filepath.Join(dir, "id")
	if err := os.WriteFile(key, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	scenario, err := filepath.Abs("../../testbeds/scenarios/64K_get_base1.scenario")
	if err != nil {
		t.Fatal(err)
	}
	tb := filepath.Join(dir, "tb.hcl")
	src := `testbed "pf" {}
ssh {
  user = "root"
  config = "none"
  identity_files = ["` + key + `"]
  known_hosts = "` + filepath.Join(dir, "known_hosts") + `"
  connect_timeout = "2s"
}
host "gone1" {
  address = "127.0.0.1"
  port    = ` + strconv.Itoa(port) + `
  roles   = ["client"]
}
variant "normal" {}
workload "w" {
  scenario = "` + scenario + `"
  clients  = ["gone1"]
  auth {
    url  = "http://127.0.0.1/auth/v1.0"
    user = "a:b"
    key  = "k"
  }
}
`
	if err := os.WriteFile(tb, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := captureRun(t, "preflight", tb, "--require", "swift-init")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "gone1") || !strings.Contains(stdout, "fails") {
		t.Fatalf("table:\n%s", stdout)
	}
	if !strings.Contains(stderr, "1 of 1 hosts failed: gone1") || !strings.Contains(stderr, "identity file") {
		t.Fatalf("stderr:\n%s", stderr)
	}
}
