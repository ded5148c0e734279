package cluster

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"benchbed/internal/labtest"
	"benchbed/plan"
	"benchbed/remote"
)

// fakeServer is a stand-in Swift server (testdata/reloadsrv.py) as a
// direct Daemon that reloads in place: its conf and a second input (a
// ring's stand-in) in dir.
type fakeServer struct {
	d          Daemon
	conf, ring string
	port       int
}

func newFakeServer(t *testing.T, dir, name string) fakeServer {
	t.Helper()
	srv, err := filepath.Abs(filepath.Join("testdata", "reloadsrv.py"))
	if err != nil {
		t.Fatal(err)
	}
	f := fakeServer{conf: filepath.Join(dir, name+".conf"), ring: filepath.Join(dir, name+".ring.gz"), port: freePort(t)}
	f.d = Daemon{Name: name, Manager: plan.ManagerDirect, Argv: []string{"/usr/bin/python3", srv, f.conf, strconv.Itoa(f.port)},
		Ports: []int{f.port}, RunDir: dir, LogDir: dir, TermWait: 1e9, Reload: true, Inputs: []string{f.conf, f.ring}}
	return f
}

// write writes s to the server's conf.
func (f fakeServer) write(t *testing.T, s string) {
	t.Helper()
	if err := os.WriteFile(f.conf, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCheckDaemons: the one round trip's check leaves alone exactly the
// servers ReloadScript would leave alone. Two stand-in servers: neither
// is current or running before they start; once started both are, to be
// reloaded or only kept running; a conf rewritten with the same content,
// a conf with new content and a touched ring each make their server one
// to reload (and ReloadScript then reloads it, and serves the new conf),
// the other staying current; a stopped server, and one whose pid file
// names another process, are neither.
func TestCheckDaemons(t *testing.T) {
	skipWithoutReloadTools(t)
	dir := t.TempDir()
	a, b := newFakeServer(t, dir, "a-server"), newFakeServer(t, dir, "b-server")
	ds := []Daemon{a.d, b.d}
	sh := labtest.NewShell(t, "h")
	ctx := context.Background()
	for _, d := range ds {
		t.Cleanup(func() { _, _ = sh.Run(ctx, "h", d.StopScript()) })
	}
	check := func(bring []bool, want ...string) {
		t.Helper()
		got := CheckDaemons(ctx, sh, "h", ds, bring)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("CheckDaemons(%v) = %q, want %q", bring, got, want)
			}
		}
	}
	act := func(f fakeServer, want string) {
		t.Helper()
		if got, err := ReloadDaemon(ctx, sh, "h", f.d); err != nil || got != want {
			t.Fatalf("ReloadScript of %s: %q, %v; want %q", f.d.Name, got, err, want)
		}
	}
	a.write(t, "a1")
	b.write(t, "b1")
	check([]bool{true, false}, "", "")
	act(a, "start")
	act(b, "start")
	// Listening, as a health wait would see them (a start returns after a
	// second at most, which a loaded machine's python3 can outlast): a
	// reload's SIGUSR1 before the stand-in set its handler would end it.
	waitListen(t, a.port, true)
	waitListen(t, b.port, true)
	check([]bool{true, false}, CheckCurrent, CheckRunning)
	check([]bool{true, true}, CheckCurrent, CheckCurrent)
	check([]bool{false, false}, CheckRunning, CheckRunning)

	a.write(t, "a1") // the same content: a rewrite is a change all the same
	check([]bool{true, true}, "", CheckCurrent)
	check([]bool{false, true}, CheckRunning, CheckCurrent)
	act(a, "reload")
	check([]bool{true, true}, CheckCurrent, CheckCurrent)

	a.write(t, "a2")
	check([]bool{true, true}, "", CheckCurrent)
	act(a, "reload")
	if got := get(t, a.port); got != "a2" {
		t.Fatalf("after the reload a serves %q, want a2", got)
	}
	check([]bool{true, true}, CheckCurrent, CheckCurrent)

	if err := os.WriteFile(b.ring, []byte("ring"), 0o644); err != nil {
		t.Fatal(err)
	}
	check([]bool{true, true}, CheckCurrent, "")
	act(b, "reload")
	check([]bool{true, true}, CheckCurrent, CheckCurrent)

	if _, err := sh.Run(ctx, "h", b.d.StopScript()); err != nil {
		t.Fatal(err)
	}
	check([]bool{true, false}, CheckCurrent, "")
	check([]bool{true, true}, CheckCurrent, "")
	other, err := sh.Run(ctx, "h", "setsid sleep 3600 </dev/null >/dev/null 2>&1 & echo $!")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = sh.Run(ctx, "h", "kill "+string(other.Stdout)) })
	if err := os.WriteFile(b.d.pidFile(), other.Stdout, 0o644); err != nil {
		t.Fatal(err)
	}
	check([]bool{true, true}, CheckCurrent, "")
}

// TestCheckDaemonsFailed: a check that fails (here the host does not
// answer) leaves every daemon to its own round trip, and a daemon that
// restarts in any case is not checked.
func TestCheckDaemonsFailed(t *testing.T) {
	ds := []Daemon{{Name: "a-server", Manager: plan.ManagerDirect, Argv: []string{"a"}, Ports: []int{1}, Reload: true},
		{Name: "memcached", Manager: plan.ManagerDirect, Argv: []string{"m"}}}
	got := CheckDaemons(context.Background(), failRunner{}, "h", ds, []bool{true, false})
	if got[0] != "" || got[1] != "" {
		t.Fatalf("a failed check: %q, want every daemon to do", got)
	}
	sh := labtest.NewShell(t, "h")
	if got := CheckDaemons(context.Background(), sh, "h", ds[1:], []bool{true}); got[0] != "" {
		t.Fatalf("a daemon to restart: %q, want it not checked", got)
	}
}

// failRunner fails every command as an unreachable host does.
type failRunner struct{}

func (failRunner) Run(context.Context, string, string) (*remote.Result, error) {
	return nil, errors.New("h: connection refused")
}

func (failRunner) FanOut(ctx context.Context, hosts []string, fn func(context.Context, string) error) *remote.Outcomes {
	return remote.FanOut(ctx, 0, hosts, fn)
}
