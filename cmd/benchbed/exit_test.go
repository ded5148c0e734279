package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exitCase is one command line and the status the table gives it.
type exitCase struct {
	name string
	args []string
	want int
}

// TestExitTable runs every command with an unknown flag, a missing
// argument and an input it cannot read (an invalid testbed, no such run),
// and where cheap its "no" answer: each gets the status of the one table
// (exit.go, docs/cli.md), a usage error with the command's usage line.
func TestExitTable(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.hcl")
	if err := os.WriteFile(bad, []byte("testbed \"x\" {}\nhost \"h\" { address = [1] }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	noRun := filepath.Join(dir, "no-such-run")
	for _, tc := range exitCases(bad, noRun, dir) {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := captureRun(t, tc.args...)
			if code != tc.want {
				t.Fatalf("benchbed %q: exit %d, want %d\n%s", tc.args, code, tc.want, errOut)
			}
			usage := strings.Contains(tc.name, "usage")
			if got := strings.Contains(errOut, "\nUsage: benchbed "); got != usage {
				t.Errorf("benchbed %q: usage line printed %v, want %v:\n%s", tc.args, got, usage, errOut)
			}
		})
	}
}

// exitCases lists the command lines of TestExitTable; a case named
// "usage..." must print the usage line.
func exitCases(bad, noRun, dir string) []exitCase {
	out := filepath.Join(dir, "out")
	cases := []exitCase{
		{"validate/invalid", []string{"validate", bad}, exitNo},
		{"diff/differ", []string{"diff", seedFile, "normal", "threads_per_disk=1"}, exitNo},
		{"diff/same", []string{"diff", seedFile, "normal", "normal"}, exitOK},
		{"diff/usage-extra-arg", []string{"diff", seedFile, "a", "b", "c"}, exitCannot},
		{"render/usage-no-out", []string{"render", seedFile}, exitCannot},
		{"render/no-variant", []string{"render", seedFile, "--variant", "nope", "--out", out}, exitCannot},
		{"restore/no-run", []string{"restore", noRun}, exitCannot},
		{"report/no-run", []string{"report", noRun}, exitCannot},
		{"compare/no-run", []string{"compare", noRun, noRun}, exitCannot},
		{"compare/usage-one-ref", []string{"compare", noRun}, exitCannot},
		{"load/usage-no-scenario", []string{"load"}, exitCannot},
		{"load/unreadable-scenario", []string{"load", "--scenario", noRun}, exitCannot},
		{"version/ok", []string{"version"}, exitOK},
		{"version/flag", []string{"--version"}, exitOK},
		{"usage-unknown-command", []string{"nosuch"}, exitCannot},
	}
	for _, c := range []string{"validate", "plan", "render", "diff", "preflight", "setup", "prefill", "sweep", "restore", "report", "compare", "load", "version", "agent", "import"} {
		cases = append(cases, exitCase{c + "/usage-unknown-flag", []string{c, "--no-such-flag"}, exitCannot})
	}
	for _, c := range []string{"validate", "plan", "render", "diff", "preflight", "setup", "prefill", "sweep", "restore", "report", "import"} {
		cases = append(cases, exitCase{c + "/usage-missing-arg", []string{c}, exitCannot})
	}
	for _, c := range []string{"plan", "preflight", "setup", "prefill", "sweep", "report"} {
		cases = append(cases, exitCase{c + "/invalid-testbed", []string{c, bad}, exitCannot})
	}
	cases = append(cases, exitCase{"render/invalid-testbed", []string{"render", bad, "--out", out}, exitCannot},
		exitCase{"diff/invalid-testbed", []string{"diff", bad, "a", "b"}, exitCannot},
		exitCase{"version/usage-extra-arg", []string{"version", "x"}, exitCannot},
		exitCase{"agent/usage-extra-arg", []string{"agent", "x"}, exitCannot},
		exitCase{"import/unreachable-host", []string{"import", "--ssh-config", unreachableConfig(dir), "--known-hosts", filepath.Join(dir, "kh"), "nohost"}, exitCannot})
	return cases
}

// unreachableConfig writes an ssh_config whose host "nohost" is a port of
// 127.0.0.1 where nothing listens.
func unreachableConfig(dir string) string {
	p := filepath.Join(dir, "ssh_config")
	_ = os.WriteFile(p, []byte("Host nohost\n  HostName 127.0.0.1\n  Port 1\n"), 0o644)
	return p
}
