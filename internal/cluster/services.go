package cluster

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/remote"
	"benchbed/templates/secrets"
)

// listener is one address a server of a host answers /healthcheck on.
type listener struct {
	Service string
	Addr    string // ip:port
}

// StartScript is the script that starts daemon name on host as the
// restart step starts it (a direct service's, for a stop fault's undo);
// "" when host runs no such daemon.
func StartScript(tb *plan.Testbed, r *render.Rendering, host, name string) string {
	ds, _ := HostDaemons(tb, r, tb.Host(host))
	for _, d := range ds {
		if d.Name == name {
			return d.StartScript()
		}
	}
	return ""
}

// HostDaemons returns host h's daemons in start order (memcached first on a
// proxy host, each server followed by the background daemons its service
// names) and the listeners of its Swift servers, from the rendering:
// storage servers listen on their ring ports on this host (one per disk
// with servers_per_port), others on the conf's bind_port.
func HostDaemons(tb *plan.Testbed, r *render.Rendering, h *plan.Host) ([]Daemon, []listener) {
	var ds []Daemon
	var ls []listener
	for _, s := range HostServices(tb, h) {
		ip, ports := listenOn(tb, r, h, s)
		if s.Role == "proxy" && !hasDaemon(ds, "memcached") {
			ds = append(ds, memcachedDaemon(s.Manager, h.Address))
		}
		ds = append(ds, reloadable(tb, s, SwiftDaemon(s, ports)))
		for _, k := range s.Daemons {
			ds = append(ds, roleDaemon(s, k))
		}
		for _, p := range ports {
			ls = append(ls, listener{Service: s.Name, Addr: joinHostPort(ip, p)})
		}
	}
	return ds, ls
}

func hasDaemon(ds []Daemon, name string) bool {
	for _, d := range ds {
		if d.Name == name {
			return true
		}
	}
	return false
}

// listenOn returns the address and ports service s of host h listens on.
func listenOn(tb *plan.Testbed, r *render.Rendering, h *plan.Host, s *plan.Service) (string, []int) {
	ip, port := h.Address, 0
	if c := r.Conf(h.Name, s.Path); c != nil {
		if v, ok := c.File.Value("DEFAULT", "bind_ip"); ok && v != "" && v != "0.0.0.0" && v != "::" {
			ip = v
		}
		if v, ok := c.File.Value("DEFAULT", "bind_port"); ok {
			port, _ = strconv.Atoi(v)
		}
	}
	seen := map[int]bool{}
	var ports []int
	for _, rl := range r.Layout.Rings {
		if rl.Ring.Role == s.Role {
			for _, p := range rl.Ports(h.Name) {
				if !seen[p] {
					seen[p] = true
					ports = append(ports, p)
				}
			}
		}
	}
	if len(ports) == 0 && port > 0 {
		ports = []int{port}
	}
	if len(ports) == 0 && s.Role == "proxy" {
		ports = []int{8080}
	}
	sort.Ints(ports)
	return ip, ports
}

func joinHostPort(ip string, port int) string {
	if len(ip) > 0 && ip[0] != '[' && strings.Contains(ip, ":") {
		return "[" + ip + "]:" + strconv.Itoa(port)
	}
	return ip + ":" + strconv.Itoa(port)
}

// withJournal adds to err the last lines daemon d logged on host (for
// systemd, journalctl -u UNIT), auth tokens masked, so that a failed start
// says why in the setup's output and in the sweep's cell; a direct daemon's
// start script already shows its log.
func withJournal(ctx context.Context, p Runner, host string, d Daemon, err error) error {
	if d.Manager == plan.ManagerDirect || ctx.Err() != nil {
		return err
	}
	res, jerr := p.Run(remote.Quiet(ctx), host, d.JournalScript())
	if jerr != nil || len(res.Stdout) == 0 {
		return err
	}
	journal := secrets.Tokens(strings.TrimRight(string(res.Stdout), "\n"))
	return &scriptError{msg: fmt.Sprintf("%v\n%s on %s:\n%s", err, d.JournalScript(), host, journal), err: err}
}

// scriptError is a script that failed on a host, told in the script's own
// words (the end of its stderr) rather than with its text, which for a
// start or restart is a dozen lines of shell; it wraps the
// *remote.ExitError.
type scriptError struct {
	msg string
	err error
}

func (e *scriptError) Error() string { return e.msg }
func (e *scriptError) Unwrap() error { return e.err }

// ScriptFailed names host and what failed, with the script's exit status
// and the end of its stderr.
func ScriptFailed(host, what string, err error) error {
	var ee *remote.ExitError
	if !errors.As(err, &ee) || ee.Code < 0 {
		return fmt.Errorf("%s: %s: %w", host, what, err)
	}
	return &scriptError{msg: fmt.Sprintf("%s: %s failed (exit status %d): %s", host, what, ee.Code, ee.StderrTail), err: err}
}

// ChangedServices maps the written conf paths of host to its services.
func ChangedServices(tb *plan.Testbed, h *plan.Host, written []string) (map[string]bool, bool) {
	out, swiftConf := map[string]bool{}, false
	for _, w := range written {
		if w == render.SwiftConfPath {
			swiftConf = true
		}
		for _, s := range HostServices(tb, h) {
			if s.Path == w {
				out[s.Name] = true
			}
		}
	}
	return out, swiftConf
}

// RestoredServices are the services of host h to restart after a restore
// changed files there: those whose conf changed (every one when swift.conf
// did), and, when a ring file changed, the servers of that ring and the
// proxies, as a cell's ring switch restarts them (a proxy would otherwise
// send requests to the ring's old ports until its reload_time).
func RestoredServices(tb *plan.Testbed, h *plan.Host, changed []string) map[string]bool {
	out, all := ChangedServices(tb, h, changed)
	for _, s := range HostServices(tb, h) {
		if all {
			out[s.Name] = true
		}
		for _, r := range tb.Rings {
			if (r.Role == s.Role || s.Role == plan.RoleProxy) && slices.Contains(changed, path.Join(SwiftDir, r.Name+".ring.gz")) {
				out[s.Name] = true
			}
		}
	}
	return out
}
