package cluster

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"benchbed/internal/labtest"
	"benchbed/plan"
	"benchbed/remote"
)

// TestWatchDaemonsNamesTheOneThatStopped: of two direct daemons, the one
// whose process is gone ends the wait with its name, host and log's end,
// the token in its log masked; the running one is not blamed.
func TestWatchDaemonsNamesTheOneThatStopped(t *testing.T) {
	r := labtest.NewShell(t, "h1")
	dir := t.TempDir()
	alive := Daemon{Name: "alive-server", Manager: plan.ManagerDirect, RunDir: dir, LogDir: dir}
	dead := Daemon{Name: "dead-server", Manager: plan.ManagerDirect, RunDir: dir, LogDir: dir}
	sleeper := exec.Command("setsid", "sleep", "3600")
	if err := sleeper.Start(); err != nil {
		t.Skipf("SKIP: setsid: %v", err)
	}
	t.Cleanup(func() { sleeper.Process.Kill(); sleeper.Wait() })
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(alive.pidFile(), []byte(strconv.Itoa(sleeper.Process.Pid)), 0o644))
	must(os.WriteFile(filepath.Join(dir, "dead-server.log"),
		[]byte("GET /v1/AUTH_x 200 AUTH_tk0123456789abcdef\nValueError: workers: 'many' is not an integer\n"), 0o644))
	ctx, stop := context.WithCancelCause(context.Background())
	defer stop(nil)
	done := make(chan struct{})
	go func() { watchDaemons(ctx, r, "h1", []Daemon{alive, dead}, stop); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the watch did not see the stopped daemon")
	}
	var de *daemonExitedError
	if !errors.As(context.Cause(ctx), &de) || de.Host != "h1" || de.Service != "dead-server" {
		t.Fatalf("cause %v, want dead-server on h1", context.Cause(ctx))
	}
	if msg := de.Error(); !strings.Contains(msg, "'many' is not an integer") || strings.Contains(msg, "AUTH_tk") {
		t.Fatalf("error %q: want the log's end with the token masked", msg)
	}
}

// TestScriptFailedTellsTheEndNotTheScript: a failed start names host,
// daemon, exit status and the script's stderr, without the script's text,
// and still wraps the *remote.ExitError.
func TestScriptFailedTellsTheEndNotTheScript(t *testing.T) {
	ee := &remote.ExitError{Host: "stor1", Cmd: "mkdir -p /var/run/swift\nsetsid sh -c 'exec swift-object-server'", Code: 1,
		StderrTail: "object-server exited at once; ValueError: 'many'"}
	err := ScriptFailed("stor1", "restarting object-server", ee)
	want := "stor1: restarting object-server failed (exit status 1): object-server exited at once; ValueError: 'many'"
	var got *remote.ExitError
	if err.Error() != want || !errors.As(err, &got) {
		t.Fatalf("scriptFailed = %q, want %q wrapping the ExitError", err, want)
	}
}
