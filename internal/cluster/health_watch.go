package cluster

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/remote"
	"benchbed/templates/secrets"
)

// watchEvery is how often a health wait checks that the daemons still run.
const watchEvery = 2 * time.Second

// daemonExitedError is a server that stopped while benchbed waited for it
// to answer: a conf it cannot start with, a port taken by another process.
type daemonExitedError struct {
	Host    string
	Service string
	LogTail string // the end of its log, tokens masked
}

func (e *daemonExitedError) Error() string {
	return fmt.Sprintf("%s: %s is not running (it exited after its start); the end of its log:\n%s", e.Host, e.Service, e.LogTail)
}

// WaitHostHealthy waits until every server of rendering r on host answers
// /healthcheck, within timeout; a daemon of the host found dead meanwhile
// ends the wait at once with a *daemonExitedError, instead of waiting out
// the timeout for a server that will never answer.
func WaitHostHealthy(ctx context.Context, p *remote.Pool, hc *http.Client, host string, tb *plan.Testbed, r *render.Rendering, timeout time.Duration) error {
	ds, ls := HostDaemons(tb, r, tb.Host(host))
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	wctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	go watchDaemons(wctx, p, host, ds, stop)
	for _, l := range ls {
		if err := WaitHealthy(wctx, hc, host, l); err != nil {
			var dead *daemonExitedError
			if errors.As(context.Cause(wctx), &dead) {
				return dead
			}
			return err
		}
	}
	return nil
}

// watchDaemons checks every watchEvery that host's daemons run; the first
// found stopped ends ctx (stop) with a *daemonExitedError.
func watchDaemons(ctx context.Context, r Runner, host string, ds []Daemon, stop context.CancelCauseFunc) {
	var script strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&script, "if %s; then echo %s; fi\n", d.deadScript(), remote.Quote(d.Name))
	}
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		res, err := r.Run(remote.Quiet(ctx), host, script.String())
		if err != nil || ctx.Err() != nil {
			continue // the health wait reports what it sees
		}
		for _, d := range ds {
			if !hasLine(string(res.Stdout), d.Name) {
				continue
			}
			tail, _ := r.Run(remote.Quiet(ctx), host, d.LogTailScript(20)+"; true")
			e := &daemonExitedError{Host: host, Service: d.Name}
			if tail != nil {
				e.LogTail = secrets.Tokens(strings.TrimRight(string(tail.Stdout), "\n"))
			}
			stop(e)
			return
		}
	}
}

func hasLine(out, line string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.TrimSpace(l) == line {
			return true
		}
	}
	return false
}

// deadScript exits 0 when the daemon has stopped (not while it starts).
func (d Daemon) deadScript() string {
	if d.Manager == plan.ManagerSystemd {
		return `{ case "$(systemctl is-active ` + remote.Quote(d.Unit) + `)" in failed|inactive) true;; *) false;; esac; }`
	}
	return "! { " + d.StatusScript() + "; }"
}

// LogTailScript prints the last n lines of the daemon's log: its journal
// (systemd), syslog (swift-init) or its own file (direct).
func (d Daemon) LogTailScript(n int) string {
	switch d.Manager {
	case plan.ManagerSystemd:
		return fmt.Sprintf("journalctl -u %s -n %d --no-pager 2>&1", remote.Quote(d.Unit), n)
	case plan.ManagerSwiftInit:
		return fmt.Sprintf("tail -n %[1]d /var/log/syslog 2>&1 || journalctl -n %[1]d --no-pager 2>&1", n)
	}
	return fmt.Sprintf("tail -n %d %s 2>&1", n, remote.Quote(d.logFile()))
}
