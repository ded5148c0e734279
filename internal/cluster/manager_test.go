package cluster

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"benchbed/internal/labtest"
	"benchbed/plan"
)

// sh runs script locally under /bin/sh, as remote runs it on a host.
func sh(t *testing.T, script string) (string, error) {
	t.Helper()
	out, err := exec.Command("/bin/sh", "-c", script).CombinedOutput()
	return string(out), err
}

// testDaemon is a direct daemon whose parent ignores SIGTERM and whose
// child listens on a TCP port, like a servers_per_port object server that
// does not stop on a TERM.
func testDaemon(t *testing.T) (Daemon, int) {
	labtest.NeedTools(t, "setsid", "ss", "python3")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	dir := t.TempDir()
	prog := filepath.Join(dir, "daemon.sh")
	body := "#!/bin/sh\ntrap '' TERM\npython3 -c 'import socket,time,signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ns=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\ns.bind((\"127.0.0.1\", " +
		itoa(port) + ")); s.listen(1); time.sleep(600)' &\nwait\n"
	if err := os.WriteFile(prog, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	d := Daemon{Name: "stubborn", Manager: plan.ManagerDirect, Argv: []string{prog}, Ports: []int{port},
		RunDir: filepath.Join(dir, "run"), LogDir: filepath.Join(dir, "log"), TermWait: 500 * time.Millisecond}
	return d, port
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestDirectDaemonStartStatusStopEscalates(t *testing.T) {
	d, port := testDaemon(t)
	if _, err := sh(t, d.StatusScript()); err == nil {
		t.Fatal("status says running before start")
	}
	if out, err := sh(t, d.StartScript()); err != nil {
		t.Fatalf("start: %v\n%s", err, out)
	}
	t.Cleanup(func() { sh(t, d.StopScript()) })
	if out, err := sh(t, d.StatusScript()); err != nil {
		t.Fatalf("status after start: %v\n%s", err, out)
	}
	waitListen(t, port, true)
	out, err := sh(t, d.StopScript())
	if err != nil {
		t.Fatalf("stop: %v\n%s", err, out)
	}
	if !strings.Contains(out, "sending SIGKILL") {
		t.Errorf("stop of a daemon that ignores SIGTERM did not escalate; output:\n%s", out)
	}
	if _, err := sh(t, d.StatusScript()); err == nil {
		t.Error("status says running after stop")
	}
	if c, err := net.Dial("tcp", "127.0.0.1:"+itoa(port)); err == nil {
		c.Close()
		t.Errorf("port %d still accepts after stop", port)
	}
}

func TestDirectDaemonThatExitsAtOnceFailsWithItsLog(t *testing.T) {
	labtest.NeedTools(t, "setsid")
	dir := t.TempDir()
	d := Daemon{Name: "broken", Manager: plan.ManagerDirect,
		Argv:   []string{"sh", "-c", "echo 'cannot read conf: no such file' >&2; exit 3"},
		RunDir: filepath.Join(dir, "run"), LogDir: filepath.Join(dir, "log")}
	out, err := sh(t, d.StartScript())
	if err == nil {
		t.Fatalf("start of a daemon that exits at once succeeded:\n%s", out)
	}
	if !strings.Contains(out, "broken exited at once") || !strings.Contains(out, "cannot read conf") {
		t.Errorf("start output does not name the daemon and show its log:\n%s", out)
	}
}

// waitListen polls until port listens (want) or not; its 2 minutes only
// stop a broken test (the old 5 s were python3's start on a loaded
// machine).
func waitListen(t *testing.T, port int, want bool) {
	t.Helper()
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); {
		c, err := net.Dial("tcp", "127.0.0.1:"+itoa(port))
		if err == nil {
			c.Close()
		}
		if (err == nil) == want {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("port %d listening=%v never reached", port, want)
}

func TestManagersScripts(t *testing.T) {
	s := &plan.Service{Name: "object-server", Path: "/etc/swift/object-server.conf"}
	for _, c := range []struct{ manager, want string }{
		{plan.ManagerSystemd, "systemctl restart swift-object"},
		{plan.ManagerSwiftInit, "swift-init object-server restart"},
		{plan.ManagerDirect, "exec /usr/bin/swift-object-server /etc/swift/object-server.conf -v"},
	} {
		s.Manager = c.manager
		if got := SwiftDaemon(s, []int{6200}).RestartScript(); !strings.Contains(got, c.want) {
			t.Errorf("%s restart = %q, want it to contain %q", c.manager, got, c.want)
		}
	}
}

// TestSystemdScripts: a systemd start or restart checks that the unit is
// still active after it, and a failed one's journal is the unit's.
func TestSystemdScripts(t *testing.T) {
	d := SwiftDaemon(&plan.Service{Name: "proxy-server", Manager: plan.ManagerSystemd}, []int{8080})
	for _, s := range []string{d.StartScript(), d.RestartScript()} {
		if !strings.Contains(s, "systemctl is-active swift-proxy") || !strings.Contains(s, "|| exit 1") {
			t.Errorf("systemd script does not check the unit after systemctl:\n%s", s)
		}
	}
	if got, want := d.JournalScript(), "journalctl -u swift-proxy -n 40 --no-pager"; !strings.Contains(got, want) {
		t.Errorf("journal script %q, want %q", got, want)
	}
	if got := memcachedDaemon(plan.ManagerSystemd, "198.18.1.11").StartScript(); !strings.Contains(got, "systemctl start memcached") {
		t.Errorf("memcached under systemd: %q", got)
	}
}

// TestMemcachedBesideSwiftInit: swift-init runs only Swift's servers, so
// memcached beside a swift-init proxy is started directly.
func TestMemcachedBesideSwiftInit(t *testing.T) {
	d := memcachedDaemon(plan.ManagerSwiftInit, "198.18.1.31")
	if d.Manager != plan.ManagerDirect || !strings.Contains(d.StartScript(), "/usr/bin/memcached") {
		t.Errorf("memcached beside swift-init: manager %q, start %q", d.Manager, d.StartScript())
	}
}
