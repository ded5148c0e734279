package cluster

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"benchbed/internal/labtest"
	"benchbed/plan"
	"benchbed/remote"
)

// barrierRunner answers a daemon's status as stopped (or running, for the
// names in running) and holds every start and restart until n of them are
// in flight at once: a StartServices that ran them one after the other
// would never release the first.
type barrierRunner struct {
	n       int
	running map[string]bool
	fail    string // the daemon whose start fails

	mu      sync.Mutex
	waiting int
	release chan struct{}
	scripts []string
}

func (r *barrierRunner) Run(ctx context.Context, host, cmd string) (*remote.Result, error) {
	r.mu.Lock()
	r.scripts = append(r.scripts, cmd)
	r.mu.Unlock()
	if strings.HasPrefix(cmd, liveFuncs+"pid=$(cat") && !strings.Contains(cmd, "kill -TERM") && !strings.Contains(cmd, "setsid") { // StatusScript
		for name := range r.running {
			if strings.Contains(cmd, "/"+name+".pid") {
				return &remote.Result{}, nil
			}
		}
		return nil, &remote.ExitError{Host: host, Code: 1}
	}
	r.mu.Lock()
	r.waiting++
	if r.waiting == r.n {
		close(r.release)
	}
	r.mu.Unlock()
	select {
	case <-r.release:
	case <-time.After(20 * time.Second):
		return nil, errors.New("the starts did not run side by side")
	}
	if r.fail != "" && strings.Contains(cmd, "/"+r.fail+".pid") {
		return nil, &remote.ExitError{Host: host, Code: 1, StderrTail: r.fail + " exited at once"}
	}
	return &remote.Result{}, nil
}

func (r *barrierRunner) FanOut(ctx context.Context, hosts []string, fn func(context.Context, string) error) *remote.Outcomes {
	return remote.FanOut(ctx, 0, hosts, fn)
}

func directDaemons(names ...string) []Daemon {
	var ds []Daemon
	for _, n := range names {
		ds = append(ds, Daemon{Name: n, Manager: plan.ManagerDirect, Argv: []string{"/usr/bin/swift-" + n}, RunDir: "/run/t", LogDir: "/log/t"})
	}
	return ds
}

// TestStartServicesSideBySide: a host's three stopped servers start at
// once (the runner releases none until all three are in flight), one that
// is running and changed restarts beside them, one running and unchanged
// is left alone; the summary lists them in the daemons' order.
func TestStartServicesSideBySide(t *testing.T) {
	r := &barrierRunner{n: 4, running: map[string]bool{"account-server": true, "memcached": true}, release: make(chan struct{})}
	ds := directDaemons("memcached", "object-server", "container-server", "account-server", "proxy-server")
	rep := NewReport([]string{"h1"})
	changed := map[string]bool{"account-server": true}
	if err := StartServices(context.Background(), r, "h1", ds, changed, false, rep); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(rep.Changes("h1"), "\n")
	want := "started object-server (direct)\nstarted container-server (direct)\n" +
		"restarted account-server (direct): its conf or a ring it reads changed\nstarted proxy-server (direct)"
	if got != want {
		t.Fatalf("changes:\n%s\nwant:\n%s", got, want)
	}
}

// TestStartServicesFirstFailureInOrder: of two failures the first
// daemon's is returned, and the others' starts still ran and are reported.
func TestStartServicesFirstFailureInOrder(t *testing.T) {
	r := &barrierRunner{n: 3, fail: "container-server", release: make(chan struct{})}
	ds := directDaemons("object-server", "container-server", "account-server")
	rep := NewReport([]string{"h1"})
	err := StartServices(context.Background(), r, "h1", ds, nil, false, rep)
	if err == nil || !strings.Contains(err.Error(), "starting container-server") {
		t.Fatalf("error %v: want container-server's start named", err)
	}
	if got := rep.Changes("h1"); len(got) != 2 || !strings.Contains(got[0], "object-server") || !strings.Contains(got[1], "account-server") {
		t.Fatalf("changes %q: want object-server and account-server started", got)
	}
}

// TestDirectDaemonWithPortsThatExitsFails: the start's early end once a
// port listens does not pass a daemon that exits without listening.
func TestDirectDaemonWithPortsThatExitsFails(t *testing.T) {
	labtest.NeedTools(t, "setsid", "ss")
	dir := t.TempDir()
	d := Daemon{Name: "broken", Manager: plan.ManagerDirect, Ports: []int{1},
		Argv:   []string{"sh", "-c", "echo 'bind: address in use' >&2; exit 3"},
		RunDir: filepath.Join(dir, "run"), LogDir: filepath.Join(dir, "log")}
	out, err := sh(t, d.StartScript())
	if err == nil || !strings.Contains(out, "broken exited at once") || !strings.Contains(out, "address in use") {
		t.Fatalf("start of a daemon that exits at once: err %v, output:\n%s", err, out)
	}
}

// TestBringWanted: a daemon is brought to its files when its service's
// changed, or with all unless it is memcached; StartServices and
// ReloadServices both ask it.
func TestBringWanted(t *testing.T) {
	proxy := Daemon{Name: "proxy-server", Unit: "proxy-server"}
	mc := Daemon{Name: "memcached", Unit: "memcached"}
	changed := map[string]bool{proxy.Service(): true}
	for _, c := range []struct {
		d       Daemon
		changed map[string]bool
		all     bool
		want    bool
	}{
		{proxy, changed, false, true},
		{proxy, nil, false, false},
		{proxy, nil, true, true},
		{mc, nil, true, false},
		{mc, map[string]bool{mc.Service(): true}, false, true},
	} {
		if got := bringWanted(c.d, c.changed, c.all); got != c.want {
			t.Errorf("bringWanted(%s, %v, all %v) = %v, want %v", c.d.Name, c.changed, c.all, got, c.want)
		}
	}
}
