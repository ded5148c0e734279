package cluster

import (
	"context"
	"path"
	"strings"

	"benchbed/plan"
	"benchbed/plan/schedule"
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

// ReloadDaemon runs d's ReloadScript on host and says what it did: its
// last line, "start", "restart", "reload" or "current".
func ReloadDaemon(ctx context.Context, p Runner, host string, d Daemon) (string, error) {
	res, err := p.Run(ctx, host, d.ReloadScript())
	if err != nil {
		return "", withJournal(ctx, p, host, d, ScriptFailed(host, "reloading "+d.Name, err))
	}
	return lastWord(string(res.Stdout)), nil
}

// ReportActs reports what StartServices or ReloadServices did to each of
// host's daemons.
func ReportActs(rep *Report, host string, ds []Daemon, acts []string) {
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

// lastWord is the last word of out: the act a script printed last.
func lastWord(out string) string {
	lines := strings.Fields(out)
	if len(lines) == 0 {
		return ""
	}
	return lines[len(lines)-1]
}
