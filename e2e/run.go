package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	buildErr  error
	buildOut  []byte
	buildDir  string
)

// Benchbed runs the benchbed CLI (built once per test binary from this
// tree) with args and returns its stdout and stderr, and its error.
func (e *Env) Benchbed(t testing.TB, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	bin := e.binary(t)
	cmd := exec.Command(bin, args...)
	cmd.Dir = e.Root
	var o, eb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &eb
	err = cmd.Run()
	return o.String(), eb.String(), err
}

// binary builds cmd/benchbed into a directory that lives as long as the
// test binary.
func (e *Env) binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "benchbed-e2e-")
		if err != nil {
			buildErr = err
			return
		}
		buildDir = dir
		gobin, err := exec.LookPath("go")
		if err != nil {
			gobin = "/usr/local/go/bin/go"
		}
		cmd := exec.Command(gobin, "build", "-o", filepath.Join(dir, "benchbed"), "./cmd/benchbed")
		cmd.Dir = e.Root
		buildOut, buildErr = cmd.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("building benchbed: %v\n%s", buildErr, buildOut)
	}
	return filepath.Join(buildDir, "benchbed")
}

// SSH runs cmd on lab host host through the lab's ssh_config (OpenSSH's
// client, independent of benchbed's) and returns its combined output.
func (e *Env) SSH(t testing.TB, host, cmd string) (string, error) {
	t.Helper()
	c := exec.Command("ssh", "-F", e.SSHConfig, "-o", "BatchMode=yes", host, cmd)
	out, err := c.CombinedOutput()
	return string(out), err
}
