package cluster

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"benchbed/internal/labtest"
	"benchbed/plan"
	"benchbed/remote"
)

// TestReloadServicesRoundTrips: a host whose servers run their files costs
// the reload step one round trip, in the first cell (every server to
// bring to its files) as in a later one; a server whose conf content
// changed is reloaded all the same, and serves the new conf, in one more;
// one that stopped is started. Two stand-ins of Swift's servers
// (cluster's testdata/reloadsrv.py) and a daemon that restarts.
func TestReloadServicesRoundTrips(t *testing.T) {
	for _, c := range []string{"python3", "ss", "pgrep", "setsid", "sleep"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Skipf("%s: %v", c, err)
		}
	}
	srv, err := filepath.Abs(filepath.Join("..", "cluster", "testdata", "reloadsrv.py"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	server := func(name string) (Daemon, string, int) {
		conf, port := filepath.Join(dir, name+".conf"), freeTCPPort(t)
		if err := os.WriteFile(conf, []byte(name+" v1"), 0o644); err != nil {
			t.Fatal(err)
		}
		return Daemon{Name: name, Manager: plan.ManagerDirect, Argv: []string{"/usr/bin/python3", srv, conf, strconv.Itoa(port)},
			Ports: []int{port}, RunDir: dir, LogDir: dir, TermWait: 1e9, Reload: true, Inputs: []string{conf}}, conf, port
	}
	a, aConf, aPort := server("a-server")
	b, _, bPort := server("b-server")
	mc := Daemon{Name: "memcached", Manager: plan.ManagerDirect, Argv: []string{"sleep", "3600"}, RunDir: dir, LogDir: dir, TermWait: 1e9}
	ds := []Daemon{a, b, mc}
	sh := &countingRunner{Shell: labtest.NewShell(t, "h")}
	ctx := context.Background()
	for _, d := range ds {
		t.Cleanup(func() { _, _ = sh.Run(ctx, "h", d.StopScript()) })
	}
	reload := func(changed map[string]bool, all bool, trips int64, changes ...string) {
		t.Helper()
		sh.n.Store(0)
		rep := NewReport([]string{"h"})
		if err := ReloadServices(ctx, sh, "h", ds, changed, all, rep); err != nil {
			t.Fatalf("ReloadServices: %v", err)
		}
		got := rep.Changes("h")
		if len(got) != len(changes) {
			t.Fatalf("ReloadServices reported %q, want %d changes (%q)", got, len(changes), changes)
		}
		for i, c := range changes {
			if !strings.HasPrefix(got[i], c) {
				t.Fatalf("ReloadServices reported %q, want %q", got, changes)
			}
		}
		if trips > 0 && sh.n.Load() != trips {
			t.Errorf("ReloadServices took %d round trips to the host, want %d", sh.n.Load(), trips)
		}
	}
	reload(nil, true, 0, "started a-server", "started b-server", "started memcached")
	// Listening, as a health wait would see them (a start returns after a
	// second at most, which a loaded machine's python3 can outlast): a
	// reload's SIGUSR1 before the stand-in set its handler would end it.
	waitListen(t, aPort, true)
	waitListen(t, bPort, true)
	reload(nil, true, 1)
	reload(map[string]bool{}, false, 1)
	if err := os.WriteFile(aConf, []byte("a-server v2"), 0o644); err != nil {
		t.Fatal(err)
	}
	reload(nil, true, 2, "reloaded a-server")
	if got := getBody(t, aPort); got != "a-server v2" {
		t.Fatalf("after the reload a-server serves %q, want its new conf", got)
	}
	reload(map[string]bool{"memcached": true}, false, 3, "restarted memcached")
	if _, err := sh.Run(ctx, "h", b.StopScript()); err != nil {
		t.Fatal(err)
	}
	reload(map[string]bool{}, false, 0, "started b-server")
}

// countingRunner counts the commands it runs.
type countingRunner struct {
	*labtest.Shell
	n atomic.Int64
}

func (r *countingRunner) Run(ctx context.Context, host, cmd string) (*remote.Result, error) {
	r.n.Add(1)
	return r.Shell.Run(ctx, host, cmd)
}

func freeTCPPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func getBody(t *testing.T, port int) string {
	t.Helper()
	resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(port) + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
