package cluster

import (
	"fmt"
	"strings"

	"benchbed/remote"
)

// reloadTenths is how long a reload waits for the re-executed server (Swift's
// bind_timeout is 30 s), polling with one ss and one awk, whose forks on 2
// cores would slow the start they wait for.
const reloadTenths = 450

// ReloadScript brings a direct Swift server (Reload) to its files in one
// round trip and prints what it did as its last line:
//   - start: it was not running, and is started (StartScript);
//   - restart: the process under its pid file is not the command line
//     benchbed starts, and is restarted (RestartScript);
//   - current: none of its Inputs changed (their ctime, which cp -p and
//     touch cannot set back) since it started or was last reloaded, so it
//     runs them and is left alone;
//   - reload: SIGUSR1 to the server, which re-executes itself in place
//     (same pid, its process group kept), binds its ports anew beside the
//     old sockets (SO_REUSEPORT), forks its workers, and once they are all
//     ready has the old sockets shut; the script waits until no old socket
//     listens and every port does, then ends the old workers, which would
//     otherwise serve the old conf on their kept-alive connections. A
//     server that exits on its reload (a conf it cannot start with) fails
//     the script with the end of its log, its old workers ended.
//
// The start time (/proc's clock ticks, rounded down) and the ctimes (a coarse
// clock, lagging) err on the side of a reload; a server reads its files a while after it starts.
// Before the signal the script writes the pid and the time to a stamp
// beside the pid file: the files older than it are the ones the reloaded
// server read.
func (d Daemon) ReloadScript() string {
	return fmt.Sprintf(`%[9]s%[1]s
if [ "$act" = start ]; then
%[2]s
echo start; exit 0
fi
if [ "$act" = restart ]; then
echo "%[3]s: process $pid is not %[4]s (or is gone, its process group not): restarting it" >&2
%[5]s
echo restart; exit 0
fi
if [ "$act" = current ]; then echo current; exit 0; fi
socks() { ss -Hltne '( %[6]s )' 2>/dev/null; }
old=$(socks | grep -o 'ino:[0-9]*' | tr '\n' ' '); kids=$(pgrep -P "$pid")
echo "$pid $(date +%%s.%%N)" >%[10]s
kill -USR1 "$pid"
i=0; while :; do
  sleep 0.1; i=$((i+1))
  if ! live "$pid"; then
    for k in $kids; do kill -TERM "$k" 2>/dev/null; done
    echo "%[3]s exited on its reload; the end of %[7]s:" >&2; tail -n 8 %[7]s >&2; exit 1
  fi
  socks | awk -v old="$old" -v ports="%[8]s" 'BEGIN { n = split(ports, p, " "); split(old, o, " "); for (k in o) gone[o[k]] = 1 }
    { for (f = 1; f <= NF; f++) if ($f in gone) exit 1; a = $4; sub(/.*:/, "", a); up[a] = 1 }
    END { for (k = 1; k <= n; k++) if (!(p[k] in up)) exit 1 }' && break
  if [ $i -ge %[11]d ]; then echo "%[3]s: not ready $((i / 10)) s after its reload (its old sockets still listen)" >&2; exit 1; fi
done
for k in $kids; do kill -TERM "$k" 2>/dev/null; done
i=0; while [ $i -lt 100 ]; do
  alive=; for k in $kids; do live "$k" && alive=1; done
  [ -z "$alive" ] && break; sleep 0.05; i=$((i+1))
done
echo reload`, d.reloadDecision(), d.StartScript(), d.Name, strings.ReplaceAll(strings.Join(d.Argv, " "), `"`, `'`),
		d.RestartScript(), portFilter(d.Ports), d.logFile(), portList(d.Ports), liveFuncs, d.stampFile(), reloadTenths)
}

// reloadDecision is shell (after liveFuncs) that sets act to what
// ReloadScript does to d, "start", "restart", "current" or "reload", and
// pid to the process under its pid file, and changes nothing:
// ReloadScript acts on it, and CheckDaemons runs it for several daemons in
// one round trip.
func (d Daemon) reloadDecision() string {
	argv := " " + strings.Join(d.Argv, " ") + " "
	var in []string
	for _, f := range d.Inputs {
		in = append(in, remote.Quote(f))
	}
	return fmt.Sprintf(`act=; pid=$(cat %[1]s 2>/dev/null)
if [ -z "$pid" ] || ! live_group "$pid"; then act=start
else
  case " $(tr '\0' ' ' </proc/$pid/cmdline 2>/dev/null)" in
  *%[2]s) ;;
  *) act=restart ;;
  esac
fi
if [ -z "$act" ]; then
  since=$(python3 -c %[5]s "$pid")
  if [ -r %[3]s ]; then
    read -r spid stime <%[3]s
    if [ "$spid" = "$pid" ] && awk -v a="$stime" -v b="$since" 'BEGIN { exit !(a > b) }'; then since=$stime; fi
  fi
  if [ -n "$since" ] && [ -z "$(find %[4]s -maxdepth 0 -newerct "@$since" 2>/dev/null)" ]; then act=current; else act=reload; fi
fi`, d.pidFile(), remote.Quote(argv), d.stampFile(), strings.Join(in, " "), remote.Quote(startEpoch))
}

// startEpoch is Python that prints the Unix time at which the process
// argv[1] started, from its start in clock ticks since boot
// (/proc/PID/stat's 22nd field) and the boot time that the wall clock and
// CLOCK_BOOTTIME read microseconds apart give: reading the uptime in one
// process and the clock in another (awk and date) set the boot time late
// by as long as the machine took between them, and a loaded host then saw
// a conf written before its server started as newer and reloaded it for
// nothing. The ticks' truncation still puts the start up to one tick
// early: the safe side (a reload too many, never one too few).
const startEpoch = `import os, sys, time
t = int(open("/proc/%s/stat" % sys.argv[1]).read().rsplit(")", 1)[1].split()[19])
print("%.3f" % (time.time() - time.clock_gettime(time.CLOCK_BOOTTIME) + t / os.sysconf("SC_CLK_TCK")))`

// stampFile is where ReloadScript writes the pid and the time of its
// signal, beside the pid file.
func (d Daemon) stampFile() string { return remote.Quote(d.pidFile() + ".reloaded") }

// portList is ports separated by spaces.
func portList(ports []int) string {
	var out []string
	for _, p := range ports {
		out = append(out, fmt.Sprint(p))
	}
	return strings.Join(out, " ")
}
