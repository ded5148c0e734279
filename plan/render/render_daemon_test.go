package render

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"benchbed/plan/plantest"
)

// daemonTestbed is one host on 127.0.0.1 running all four Swift servers,
// the object ring with one port per disk in variant "spp". %[1]d.. are free
// ports, %[7]s the devices directory.
const daemonTestbed = `
testbed "daemons" {}
host "aio" {
  address = "127.0.0.1"
  roles   = ["proxy", "object", "container", "account"]
  disks "object" { names = ["d0", "d1"] }
  disks "meta" { names = ["m0"] }
}
ring "object" {
  part_power = 4
  replicas   = 1
  disks      = "object"
  port       = %[1]d
  port_base  = %[2]d
}
ring "container" {
  part_power = 4
  replicas   = 1
  disks      = "meta"
  port       = %[4]d
}
ring "account" {
  part_power = 4
  replicas   = 1
  disks      = "meta"
  port       = %[5]d
}
locals {
  # test only: the daemons stay root (the devices are in a root-only temp dir)
  common = { user = "root", devices = "%[7]s", workers = 1 }
}
service "proxy-server" {
  role     = "proxy"
  settings = { DEFAULT = merge(local.common, { bind_port = %[6]d }) }
  unchecked = ["devices"] # the proxy reads no devices: one common DEFAULT for every server
}
service "object-server" {
  role     = "object"
  settings = { DEFAULT = local.common }
}
service "container-server" {
  role     = "container"
  settings = { DEFAULT = local.common }
}
service "account-server" {
  role     = "account"
  settings = { DEFAULT = local.common }
}
variant "spp" {
  set "object-server" { DEFAULT = { servers_per_port = 1 } }
  ring "object" { port_per_disk = true }
}
`

// needDaemons skips, saying why, where Swift's daemons cannot be started
// in a private mount namespace.
func needDaemons(t *testing.T) {
	t.Helper()
	needSwift(t)
	if os.Geteuid() != 0 {
		t.Skip("SKIP: not root: the Swift daemons test bind-mounts the rendered /etc/swift in a private mount namespace")
	}
	for _, p := range []string{"/usr/bin/unshare", "/usr/bin/swift-object-server", "/usr/bin/swift-proxy-server"} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("SKIP: %s is missing (%v): install util-linux and Debian's swift packages", p, err)
		}
	}
}

// freePorts returns n ports free on 127.0.0.1 right now.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	var ls []net.Listener
	for len(ports) < n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// TestSwiftDaemonsStartWithRenderedConfs renders the built-in templates for
// one host on 127.0.0.1, puts the confs and rings built from the layout in a
// directory mounted over /etc/swift in a private mount namespace, starts
// the four Swift servers and asks each for /healthcheck: the object server
// answers on both per-disk ports of the ring (servers_per_port).
func TestSwiftDaemonsStartWithRenderedConfs(t *testing.T) {
	needDaemons(t)
	dir := t.TempDir()
	p := freePorts(t, 6)
	// the per-disk ports are port_base and port_base+1: take two in a row
	p[1] = freePair(t)
	devices := filepath.Join(dir, "srv")
	tb := plantest.LoadText(t, "daemons.hcl", fmt.Sprintf(daemonTestbed, p[0], p[1], 0, p[3], p[4], p[5], devices))
	r, err := Render(tb, tb.Variant("spp"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	etc := mkdir(t, dir, "etc-swift")
	for _, c := range r.Confs {
		writeConf(t, c.File, filepath.Join(etc, filepath.Base(c.Path)))
	}
	for _, d := range []string{"d0", "d1", "m0"} {
		mkdir(t, devices, d)
	}
	runSwift(t, dir, ringsFor(r.Layout, tb, etc), []swiftCheck{})
	for _, s := range []string{"proxy", "object", "container", "account"} {
		startDaemon(t, dir, etc, s)
	}
	for _, port := range []int{p[1], p[1] + 1, p[3], p[4], p[5]} {
		if err := waitHealthy(port, 3*time.Minute); err != nil {
			t.Errorf("port %d: %v\n%s", port, err, daemonLogs(dir))
		}
	}
	if err := waitHealthy(p[0], time.Second); err == nil {
		t.Errorf("the object server listens on bind_port %d although servers_per_port serves the ring's ports", p[0])
	}
}

// freePair returns a port whose successor was free too.
func freePair(t *testing.T) int {
	t.Helper()
	for i := 0; i < 50; i++ {
		ps := freePorts(t, 1)
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", ps[0]+1))
		if err == nil {
			l.Close()
			return ps[0]
		}
	}
	t.Fatal("no two consecutive free ports")
	return 0
}

// startDaemon starts swift-<server>-server with the rendered conf, /etc/swift
// being etc in its own mount namespace, and stops its process group at the
// end of the test.
func startDaemon(t *testing.T, dir, etc, server string) {
	t.Helper()
	log, err := os.Create(filepath.Join(dir, server+".log"))
	if err != nil {
		t.Fatal(err)
	}
	bin := "/usr/bin/swift-" + server + "-server"
	cmd := exec.Command("/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
		`mount --bind "$1" /etc/swift && exec "$2" "$3" -v`, "sh", etc, bin, "/etc/swift/"+server+"-server.conf")
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopGroup(cmd); log.Close() })
}

// stopGroup ends the process group of cmd: SIGTERM, then SIGKILL when it
// lingers (a servers_per_port parent can outlive SIGTERM, see SWIFT.md).
func stopGroup(cmd *exec.Cmd) {
	pgid := cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	<-done
}

// waitHealthy polls GET /healthcheck on 127.0.0.1:port until it answers 200
// OK or the deadline passes (a startup timeout, not a measurement).
func waitHealthy(port int, within time.Duration) error {
	client := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(within)
	var last error
	for time.Now().Before(deadline) {
		resp, err := client.Get(fmt.Sprintf("http://127.0.0.1:%d/healthcheck", port))
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
			err = fmt.Errorf("status %s", resp.Status)
		}
		last = err
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("no healthy answer within %v: %v", within, last)
}

func daemonLogs(dir string) string {
	var b strings.Builder
	for _, s := range []string{"proxy", "object", "container", "account"} {
		data, _ := os.ReadFile(filepath.Join(dir, s+".log"))
		fmt.Fprintf(&b, "--- %s log:\n%s\n", s, tail(string(data), 1500))
	}
	return b.String()
}
