package labtest

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/remote"
)

// Shell runs commands with the local /bin/sh, each of the paths in
// Paths moved under the host's own temporary directory: the scripts as they
// run on a host, without SSH.
type Shell struct {
	roots map[string]string
	// Paths are the host paths a command names that move under the host's
	// directory, as the name given (e.g. a lock directory as "lock").
	Paths map[string]string
}

// NewShell returns a shellRunner for hosts, each with a new
// temporary directory.
func NewShell(t *testing.T, hosts ...string) *Shell {
	r := &Shell{roots: map[string]string{}, Paths: map[string]string{}}
	for _, h := range hosts {
		r.roots[h] = t.TempDir()
	}
	return r
}

// Root is host's temporary directory.
func (r *Shell) Root(host string) string { return r.roots[host] }

// Run runs cmd with /bin/sh, as host.
func (r *Shell) Run(ctx context.Context, host, cmd string) (*remote.Result, error) {
	for p, name := range r.Paths {
		cmd = strings.ReplaceAll(cmd, p, filepath.Join(r.roots[host], name))
	}
	out, err := exec.CommandContext(ctx, "/bin/sh", "-c", cmd).Output()
	res := &remote.Result{Host: host, Cmd: cmd, Stdout: out}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return res, &remote.ExitError{Host: host, Cmd: cmd, Code: ee.ExitCode(), StderrTail: string(ee.Stderr)}
	}
	return res, err
}

// FanOut runs fn on every host through remote's fan-out, all at once.
func (r *Shell) FanOut(ctx context.Context, hosts []string, fn func(context.Context, string) error) *remote.Outcomes {
	return remote.FanOut(ctx, 0, hosts, fn)
}
