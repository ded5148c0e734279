package cluster

import (
	"cmp"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"benchbed/plan"
	"benchbed/remote"
)

// Daemon is one process setup starts on a host: a Swift server of a service
// block, or memcached on a proxy host.
type Daemon struct {
	Name    string   // "proxy-server", "memcached", "object-replicator", ...
	Of      string   // the service whose conf it reads ("" = Name)
	Manager string   // plan.ManagerSystemd, ManagerSwiftInit or ManagerDirect
	Unit    string   // systemd unit or swift-init server name
	Argv    []string // the foreground command line (direct)
	Restart string   // a testbed's own restart command ("" = from Manager)
	Ports   []int    // TCP ports it listens on; a restart waits until they are free
	RunDir  string   // pid files ("" = runDir)
	LogDir  string   // log files ("" = logDir)
	// TermWait is how long a stop waits after SIGTERM before SIGKILL (0 = 15 s).
	TermWait time.Duration
	// Reload: a Swift server that reloads in place (schedule.Reloads);
	// Inputs are the files it reads as it starts (its conf, swift.conf,
	// the rings), whose change since then a reload is for (ReloadScript).
	Reload bool
	Inputs []string
}

// Run and log directories of directly started daemons.
const (
	runDir = "/var/run/swift"
	logDir = "/var/log/swift"
)

// How long a stop waits, in tenths of a second: after SIGKILL for the
// processes, then for the ports.
const (
	killTenths = 50
	portTenths = 100
)

// SwiftDaemon returns the daemon of service s (conf at s.Path), listening on
// ports.
func SwiftDaemon(s *plan.Service, ports []int) Daemon {
	d := Daemon{Name: s.Name, Manager: s.Manager, Restart: s.Restart, Ports: ports}
	switch s.Manager {
	case plan.ManagerSystemd:
		d.Unit = s.Unit
		if d.Unit == "" {
			d.Unit = "swift-" + strings.TrimSuffix(s.Name, "-server")
		}
	case plan.ManagerSwiftInit:
		d.Unit = s.Unit
		if d.Unit == "" {
			d.Unit = s.Name
		}
	default:
		bin := s.Unit
		if bin == "" {
			bin = "swift-" + s.Name
		}
		if !strings.HasPrefix(bin, "/") {
			bin = "/usr/bin/" + bin
		}
		// -v also logs to stderr, which the start script sends to a file:
		// the logs are kept even where no syslog listens on /dev/log.
		d.Argv = []string{bin, s.Path, "-v"}
	}
	return d
}

// roleDaemon returns background daemon kind ("replicator", ...) of
// service s: swift-<role>-<kind> on s's conf, with s's manager (Debian's
// unit of that name under systemd), listening on no port.
func roleDaemon(s *plan.Service, kind string) Daemon {
	name := s.Role + "-" + kind
	d := Daemon{Name: name, Of: s.Name, Manager: s.Manager, Unit: name}
	switch s.Manager {
	case plan.ManagerSystemd:
		d.Unit = "swift-" + name
	case plan.ManagerDirect:
		d.Argv = []string{"/usr/bin/swift-" + name, s.Path, "-v"}
	}
	return d
}

// Service is the name of the service whose conf d reads.
func (d Daemon) Service() string { return cmp.Or(d.Of, d.Name) }

// memcachedDaemon returns memcached for a proxy host, listening on the
// loopback and addr, managed like the host's proxy service; swift-init
// manages only Swift's servers, so beside a swift-init proxy memcached is
// started directly.
func memcachedDaemon(manager, addr string) Daemon {
	if manager == plan.ManagerSwiftInit {
		manager = plan.ManagerDirect
	}
	d := Daemon{Name: "memcached", Manager: manager, Unit: "memcached", Ports: []int{11211}}
	listen := "127.0.0.1"
	if addr != "" && addr != "127.0.0.1" && addr != "localhost" {
		listen += "," + addr
	}
	d.Argv = []string{"/usr/bin/memcached", "-u", "memcache", "-l", listen, "-p", "11211", "-c", "4096", "-m", "128"}
	return d
}

func (d Daemon) runDir() string  { return cmp.Or(d.RunDir, runDir) }
func (d Daemon) logDir() string  { return cmp.Or(d.LogDir, logDir) }
func (d Daemon) pidFile() string { return path.Join(d.runDir(), d.Name+".pid") }
func (d Daemon) logFile() string { return path.Join(d.logDir(), d.Name+".log") }

func (d Daemon) termTenths() int {
	if d.TermWait <= 0 {
		return 150
	}
	return int(d.TermWait / (100 * time.Millisecond))
}

// StatusScript exits 0 when the daemon runs.
func (d Daemon) StatusScript() string {
	switch d.Manager {
	case plan.ManagerSystemd:
		return "systemctl is-active --quiet " + remote.Quote(d.Unit)
	case plan.ManagerSwiftInit:
		return "swift-init " + remote.Quote(d.Unit) + " status >/dev/null"
	}
	return fmt.Sprintf(`%spid=$(cat %s 2>/dev/null) && [ -n "$pid" ] && live_group "$pid"`, liveFuncs, d.pidFile())
}

// liveFuncs are shell functions: live PID succeeds while the process runs
// (a zombie does not), live_group PGID while a process of the group does
// (without pgrep, while kill -0 reaches the group). A process that exited
// stays a zombie until its parent reaps it, and a detached daemon's parent
// is PID 1, which may take its time: on the netns lab's machine 1-2 s,
// which a stop that waited for kill -0 to fail counted as the server's own
// exit. Both use the shell's builtins but for one pgrep: they are polled.
const liveFuncs = `live() { read -r s </proc/$1/stat 2>/dev/null || return 1; s=${s##*") "}; [ "${s%% *}" != Z ]; }
live_group() {
  command -v pgrep >/dev/null 2>&1 || { kill -0 "-$1" 2>/dev/null; return; }
  for k in $(pgrep -g "$1" 2>/dev/null); do live "$k" && return 0; done; return 1
}
`

// StartScript starts the daemon; for direct, detached in its own session
// (the pid file holds its process group), stdout and stderr to its log, and
// fails with the log's tail when it exits within a second. A daemon with
// ports is started once it listens on one (checked every 0.05 s), so that
// the restart does not wait out the second; whether it keeps running is
// the health wait's watch.
func (d Daemon) StartScript() string {
	if s, ok := d.managedScript("start"); ok {
		return s
	}
	argv := make([]string, len(d.Argv))
	for i, a := range d.Argv {
		argv[i] = remote.Quote(a)
	}
	return fmt.Sprintf(`%[8]smkdir -p %[1]s %[2]s && chown swift: %[1]s %[2]s 2>/dev/null
cd /
setsid sh -c 'echo $$ > %[3]s; exec %[4]s' </dev/null >>%[5]s 2>&1 &
i=0; while [ $i -lt 20 ]; do
  sleep 0.05; i=$((i+1)); pid=$(cat %[3]s 2>/dev/null)
  if [ -n "$pid" ] && ! live_group "$pid"; then break; fi
  %[7]s
done
pid=$(cat %[3]s 2>/dev/null)
if [ -z "$pid" ] || ! live_group "$pid"; then
  echo "%[6]s exited at once; the end of %[5]s:" >&2; tail -n 8 %[5]s >&2; exit 1
fi`, d.runDir(), d.logDir(), d.pidFile(), strings.ReplaceAll(strings.Join(argv, " "), "'", `'\''`), d.logFile(), d.Name, listeningBreak(d.Ports), liveFuncs)
}

// listeningBreak is the start loop's exit once a socket listens on one of
// ports (":" without ports: the loop waits its second).
func listeningBreak(ports []int) string {
	if len(ports) == 0 {
		return ":"
	}
	return fmt.Sprintf(`if [ -n "$pid" ] && [ -n "$(ss -Hltn '( %s )' 2>/dev/null)" ]; then break; fi`, portFilter(ports))
}

// StopScript stops a directly started daemon: SIGTERM to its whole process
// group (servers_per_port workers ignore a TERM to the parent alone),
// SIGKILL when it is not gone in time, then waits until its ports are free.
func (d Daemon) StopScript() string {
	return fmt.Sprintf(`%[6]spid=$(cat %[1]s 2>/dev/null)
if [ -n "$pid" ] && live_group "$pid"; then
  kill -TERM "-$pid" 2>/dev/null
  i=0; while live_group "$pid" && [ $i -lt %[2]d ]; do sleep 0.05; i=$((i+1)); done
  if live_group "$pid"; then
    echo "%[5]s: still running after SIGTERM, sending SIGKILL" >&2
    kill -KILL "-$pid" 2>/dev/null
    i=0; while live_group "$pid" && [ $i -lt %[3]d ]; do sleep 0.05; i=$((i+1)); done
    if live_group "$pid"; then echo "%[5]s: process group $pid survives SIGKILL" >&2; exit 1; fi
  fi
fi
rm -f %[1]s
%[4]s`, d.pidFile(), 2*d.termTenths(), 2*killTenths, portsFreeScript(d.Name, d.Ports), d.Name, liveFuncs)
}

// RestartScript restarts the daemon; for direct, stop then start.
func (d Daemon) RestartScript() string {
	if d.Restart != "" {
		return d.Restart
	}
	if s, ok := d.managedScript("restart"); ok {
		return s
	}
	return d.StopScript() + "\n" + d.StartScript()
}

// managedScript is verb ("start" or "restart") for a daemon that systemd
// or swift-init manages (systemdScript, swift-init's own verb); ok is
// false for a direct daemon, which benchbed starts itself.
func (d Daemon) managedScript(verb string) (script string, ok bool) {
	switch d.Manager {
	case plan.ManagerSystemd:
		return systemdScript(verb, d.Unit), true
	case plan.ManagerSwiftInit:
		return "swift-init " + remote.Quote(d.Unit) + " " + verb, true
	}
	return "", false
}

// systemdScript starts or restarts unit and fails unless it is still
// active a second later: a server that cannot bind or read its conf exits
// after systemctl returned, and a unit whose condition fails (Debian's
// need a non-empty conf) is skipped without an error. A restart stops the
// unit's whole cgroup (KillMode=control-group, Debian's units' default),
// so servers_per_port's workers go with their parent, and systemctl
// returns once they are gone.
func systemdScript(verb, unit string) string {
	u := remote.Quote(unit)
	return fmt.Sprintf(`systemctl %[1]s %[2]s || exit 1
sleep 1
state=$(systemctl is-active %[2]s) || { echo "%[3]s is $state after systemctl %[1]s" >&2; exit 1; }`, verb, u, unit)
}

// JournalScript prints the last lines the daemon logged: the unit's
// journal (systemd), its syslog identifier's (swift-init) or its log file
// (direct).
func (d Daemon) JournalScript() string {
	switch d.Manager {
	case plan.ManagerSystemd:
		return fmt.Sprintf("journalctl -u %s -n %d --no-pager -o short-precise", remote.Quote(d.Unit), journalLines)
	case plan.ManagerSwiftInit:
		return fmt.Sprintf("journalctl -t %s -n %d --no-pager -o short-precise 2>/dev/null || tail -n %[2]d /var/log/syslog", remote.Quote(d.Name), journalLines)
	}
	return fmt.Sprintf("tail -n %d %s", journalLines, d.logFile())
}

// journalLines is how many lines of a daemon's log a failed start shows.
const journalLines = 40

// portsFreeScript waits until no socket listens on any of ports.
func portsFreeScript(name string, ports []int) string {
	if len(ports) == 0 {
		return ":"
	}
	filter := portFilter(ports)
	return fmt.Sprintf(`i=0; while [ -n "$(ss -Hltn '( %[1]s )' 2>/dev/null)" ] && [ $i -lt %[2]d ]; do sleep 0.1; i=$((i+1)); done
if [ -n "$(ss -Hltn '( %[1]s )' 2>/dev/null)" ]; then echo "%[3]s: ports still in use: $(ss -Hltnp '( %[1]s )' | tr '\n' ' ')" >&2; exit 1; fi`,
		filter, portTenths, name)
}

// portFilter is ss's filter of sockets on any of ports.
func portFilter(ports []int) string {
	var f []string
	for _, p := range ports {
		f = append(f, "sport = :"+strconv.Itoa(p))
	}
	return strings.Join(f, " or ")
}
