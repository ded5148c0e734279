package cluster

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"benchbed/internal/labtest"
)

// TestReloadScript runs ReloadScript with the local shell on a stand-in
// of Swift's seamless reload (testdata/reloadsrv.py): it starts a server
// that is not running, reloads in place (same pid) one whose conf changed
// since it started, so that
// every answer is the new conf's and the old worker is gone, then leaves
// it (nothing changed since the reload), restarts one
// whose pid file names another process, and fails with the log's end when
// the reloaded server exits.
func TestReloadScript(t *testing.T) {
	skipWithoutReloadTools(t)
	dir := t.TempDir()
	f := newFakeServer(t, dir, "fake-server")
	d, port := f.d, f.port
	sh := labtest.NewShell(t, "h")
	ctx := context.Background()
	t.Cleanup(func() { _, _ = sh.Run(ctx, "h", d.StopScript()) })
	write := func(s string) { t.Helper(); f.write(t, s) }
	act := func(want string) {
		t.Helper()
		got, err := ReloadDaemon(ctx, sh, "h", d)
		if err != nil {
			t.Fatalf("ReloadScript: %v", err)
		}
		if got != want {
			t.Fatalf("ReloadScript did %q, want %q", got, want)
		}
	}
	pid := func() string {
		b, _ := os.ReadFile(filepath.Join(dir, "fake-server.pid"))
		return strings.TrimSpace(string(b))
	}
	write("v1")
	act("start")
	// The start returns once the server listens or after a second, which
	// a loaded machine's python3 (with the stand-in's 0.3 s of imports)
	// can outlast: the health wait's part in a restart, the test's here.
	waitListen(t, port, true)
	first := pid()
	if got := get(t, port); got != "v1" {
		t.Fatalf("after the start: %q, want v1", got)
	}
	write("v2")
	act("reload")
	if pid() != first {
		t.Errorf("the reload changed the pid %s to %s: it is no reload in place", first, pid())
	}
	for range 5 {
		if got := get(t, port); got != "v2" {
			t.Fatalf("after the reload: %q, want v2 on every connection", got)
		}
	}
	if n := liveChildren(t, sh, first); n != 1 {
		t.Errorf("after the reload %s has %d live children, want its new worker only (the old one ended)", first, n)
	}
	act("current") // the conf changed before the reload's stamp: the server read it
	write("fail")
	_, err := ReloadDaemon(ctx, sh, "h", d)
	if err == nil || !strings.Contains(err.Error(), "exited on its reload") || !strings.Contains(err.Error(), "cannot start with") {
		t.Fatalf("a reload onto a conf the server cannot start with: %v; want its exit and the log's end", err)
	}
	if _, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/", port)); err == nil {
		t.Errorf("a server answers after the failed reload: the old workers were not ended")
	}
	write("v3")
	if got, err := ReloadDaemon(ctx, sh, "h", d); err != nil || (got != "start" && got != "restart") {
		t.Fatalf("after the failed reload: %q, %v; want a start (or a restart, while the old server's temporary child ends)", got, err)
	}
	// A pid file naming another process: restarted, not signalled.
	other, err := sh.Run(ctx, "h", "setsid sleep 3600 </dev/null >/dev/null 2>&1 & echo $!")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = sh.Run(ctx, "h", "kill "+strings.TrimSpace(string(other.Stdout))+" 2>/dev/null") })
	_, _ = sh.Run(ctx, "h", d.StopScript())
	if err := os.WriteFile(filepath.Join(dir, "fake-server.pid"), other.Stdout, 0o644); err != nil {
		t.Fatal(err)
	}
	act("restart")
	waitListen(t, port, true)
	if got := get(t, port); got != "v3" {
		t.Fatalf("after the restart: %q, want v3", got)
	}
	if _, err := sh.Run(ctx, "h", liveFuncs+"live "+strings.TrimSpace(string(other.Stdout))); err == nil {
		t.Errorf("the process the pid file named still runs after the restart")
	}
}

// skipWithoutReloadTools skips a test of the reload scripts on a machine
// without the commands they and the stand-in server run.
func skipWithoutReloadTools(t *testing.T) {
	t.Helper()
	for _, c := range []string{"python3", "ss", "pgrep", "setsid"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Skipf("%s: %v", c, err)
		}
	}
}

func get(t *testing.T, port int) string {
	t.Helper()
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/", port))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// liveChildren counts pid's children that are not zombies.
func liveChildren(t *testing.T, sh *labtest.Shell, pid string) int {
	t.Helper()
	res, _ := sh.Run(context.Background(), "h", `n=0; for k in $(pgrep -P `+pid+`); do case "$(sed 's/.*) //' /proc/$k/stat | cut -c1)" in Z) ;; *) n=$((n+1)) ;; esac; done; echo $n`)
	n, _ := strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
	return n
}
