package cluster

import (
	"context"
	"path"
	"strconv"
	"strings"

	"benchbed/plan"
	"benchbed/plan/schedule"
	"benchbed/remote"
)

// reloadable marks d, the Swift server of service s, as one that reloads
// in place (schedule.Reloads) and lists the files it reads as it starts:
// its conf, swift.conf and the rings of its role (a proxy's: every ring).
func reloadable(tb *plan.Testbed, s *plan.Service, d Daemon) Daemon {
	if !schedule.Reloads(s) || len(d.Ports) == 0 || len(d.Argv) == 0 {
		return d
	}
	d.Reload = true
	d.Inputs = []string{s.Path, path.Join(SwiftDir, "swift.conf")}
	for _, r := range tb.Rings {
		if s.Role == plan.RoleProxy || r.Role == s.Role {
			d.Inputs = append(d.Inputs, path.Join(SwiftDir, r.Name+".ring.gz"))
		}
	}
	return d
}

// ReloadServices is StartServices for the sweep's reload step and the
// restore: host's daemons that are not running are started, and those of
// the changed services (every Swift server with all) are brought to their
// files: a server that reloads in place (Daemon.Reload) is reloaded when
// a file it reads changed since it started, in one round trip
// (ReloadScript), and left running when none did; any other daemon is
// restarted. Side by side, at most startParallel at once; changes are
// reported, and the first failure returned, in the daemons' order.
func ReloadServices(ctx context.Context, p Runner, host string, ds []Daemon, changed map[string]bool, all bool, rep *Summary) error {
	acts := make([]string, len(ds))
	keys := make([]string, len(ds))
	for i := range ds {
		keys[i] = strconv.Itoa(i)
	}
	sum := remote.FanOut(ctx, startParallel, keys, func(ctx context.Context, key string) error {
		i, _ := strconv.Atoi(key)
		d := ds[i]
		want := changed[d.service()] || (all && d.Name != "memcached")
		var err error
		if want && d.Reload {
			acts[i], err = reloadDaemon(ctx, p, host, d)
		} else {
			acts[i], err = startDaemon(ctx, p, host, d, want)
		}
		return err
	})
	reportActs(rep, host, ds, acts)
	for _, r := range sum.Results {
		if r.Err != nil {
			return r.Err
		}
	}
	return nil
}

// reloadDaemon runs d's ReloadScript on host and says what it did: its
// last line, "start", "restart", "reload" or "current".
func reloadDaemon(ctx context.Context, p Runner, host string, d Daemon) (string, error) {
	res, err := p.Run(ctx, host, d.ReloadScript())
	if err != nil {
		return "", withJournal(ctx, p, host, d, ScriptFailed(host, "reloading "+d.Name, err))
	}
	return lastWord(string(res.Stdout)), nil
}

// reportActs reports what StartServices or ReloadServices did to each of
// host's daemons.
func reportActs(rep *Summary, host string, ds []Daemon, acts []string) {
	for i, d := range ds {
		switch acts[i] {
		case "start":
			rep.Change(host, "started %s (%s)", d.Name, d.Manager)
		case "restart":
			rep.Change(host, "restarted %s (%s): its conf or a ring it reads changed", d.Name, d.Manager)
		case "reload":
			rep.Change(host, "reloaded %s in place (SIGUSR1): its conf or a ring it reads changed since it started", d.Name)
		case "current":
			rep.Note(host, "%s runs its files: none changed since it started", d.Name)
		}
	}
}

// lastLine is the last word of out: the act a script printed last.
func lastWord(out string) string {
	lines := strings.Fields(out)
	if len(lines) == 0 {
		return ""
	}
	return lines[len(lines)-1]
}
