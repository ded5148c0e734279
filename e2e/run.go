package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"benchbed/e2e/labkit"
)

var (
	buildOnce sync.Once
	buildErr  error
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
		buildDir, _, buildErr = labkit.Build(e.Root, "benchbed-e2e-")
	})
	if buildErr != nil {
		t.Fatal(buildErr)
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

var (
	fixtureMu   sync.Mutex
	fixtureDirs []string
)

// fixtureDir makes a directory that lives as long as the test binary (not
// one test: a fixture several tests share keeps its files there), removed
// by Main; named like the build directories, so that a killed binary's
// are removed by the next.
func fixtureDir(t testing.TB) string {
	t.Helper()
	d, err := os.MkdirTemp("", "benchbed-e2e-fixture-")
	if err != nil {
		t.Fatal(err)
	}
	fixtureMu.Lock()
	defer fixtureMu.Unlock()
	fixtureDirs = append(fixtureDirs, d)
	return d
}

// removeFixtures removes the directories fixtureDir made.
func removeFixtures() {
	fixtureMu.Lock()
	defer fixtureMu.Unlock()
	for _, d := range fixtureDirs {
		os.RemoveAll(d)
	}
	fixtureDirs = nil
}
