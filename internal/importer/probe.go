package importer

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"benchbed/remote"
)

// Runner runs commands on hosts: a *remote.Pool, or a test's fake.
type Runner interface {
	Run(ctx context.Context, host, cmd string) (*remote.Result, error)
	FanOut(ctx context.Context, hosts []string, fn func(ctx context.Context, host string) error) *remote.Outcomes
}

var _ Runner = (*remote.Pool)(nil)

// mark starts every part of probeScript's output: "\x1eKIND ARG".
const mark = "\x1e"

// probeScript reads, and only reads, what Build needs of a host: Swift's
// version, the addresses, swift-init, every /etc/swift/*.conf, the rings
// (ringsPy), the pid files under /var/run/swift, Swift's processes with
// their systemd unit: those of a pid file, and the others in the shell's
// own mount and network namespaces (a lab's hosts may share one machine's
// process table; the others are counted as "elsewhere", by the first two
// words of their command line), and what is
// mounted under the devices directory. Each part follows a mark line
// (the mark at a line's start). Every line is printed with printf, never
// echo (see say).
// Python writes no bytecode cache either: nothing on the host changes.
const probeScript = `m=$(printf '\036')
# say prints its words as they are: dash's echo turns backslash escapes
# into bytes, and the probe's own command line, which ps lists, holds '\036'
say() { printf '%s\n' "$*"; }
export PYTHONDONTWRITEBYTECODE=1 # not even a bytecode cache is written
say "${m}version"
for py in /usr/bin/python3 python3; do v=$($py -c 'import swift; print(swift.__version__)' 2>/dev/null) && break; done
say "$v"
say "${m}addrs"
hostname -I 2>/dev/null
say "${m}swift-init"
command -v swift-init 2>/dev/null
for f in /etc/swift/*.conf; do [ -f "$f" ] && [ -r "$f" ] && { say "${m}conf $f"; cat "$f"; say; }; done
say "${m}rings"
/usr/bin/python3 - /etc/swift 2>/dev/null <<'PY' || say '{"kind":"error","error":"python3 cannot read the rings with Swift"}'
` + ringsPy + `PY
say "${m}pidfiles"
pids=" "
for f in /var/run/swift/*.pid /var/run/swift/*/*.pid; do
  [ -f "$f" ] || continue
  p=$(head -n 1 "$f" 2>/dev/null); say "$p $f"; pids="$pids$p "
done
say "${m}procs"
mnt=$(readlink /proc/$$/ns/mnt); net=$(readlink /proc/$$/ns/net)
ps -ww -eo pid=,ppid=,pgid=,args= 2>/dev/null | while read -r pid ppid pgid args; do
  case "$args" in *swift-*) ;; *) continue ;; esac
  case "$pids" in *" $pid "*|*" $pgid "*) ;; *)
    a2=${args#* }; a2="${args%% *} ${a2%% *}" # its first two words: which program it is
    [ "$(readlink /proc/$pid/ns/mnt 2>/dev/null)" = "$mnt" ] || { say "elsewhere $pid $a2"; continue; }
    [ "$(readlink /proc/$pid/ns/net 2>/dev/null)" = "$net" ] || { say "elsewhere $pid $a2"; continue; } ;;
  esac
  unit=$(grep -o '[^/]*\.service' /proc/$pid/cgroup 2>/dev/null | tail -n 1)
  say "$pid $ppid $pgid ${unit:--} $args"
done
dev=$(sed -n 's/^[[:space:]]*devices[[:space:]]*[=:][[:space:]]*//p' /etc/swift/object-server.conf 2>/dev/null | tail -n 1)
dev=${dev:-/srv/node}
say "${m}devices $dev"
for d in "$dev"/*; do [ -d "$d" ] && say "${d##*/}"; done
say "${m}mounts"
findmnt -rn -o TARGET,SOURCE,FSTYPE 2>/dev/null | while read -r t s f; do case "$t" in "$dev"/*) say "$t $s $f" ;; esac; done
true
`

// ringsPy prints one JSON line per builder and ring file in the directory
// it is given (/etc/swift), read with Swift's own classes (nothing
// written).
const ringsPy = `import glob, hashlib, json, os, sys
from swift.common.ring import RingBuilder, RingData
DIR = sys.argv[1]
KEYS = ("id", "region", "zone", "ip", "port", "device", "weight")
def devs(ds):
    return [{k: d[k] for k in KEYS} for d in ds if d is not None]
for f in sorted(glob.glob(os.path.join(DIR, "*.builder"))):
    name = os.path.basename(f)[:-len(".builder")]
    try:
        b = RingBuilder.load(f)
        print(json.dumps({"kind": "builder", "name": name, "part_power": b.part_power, "replicas": b.replicas,
                          "min_part_hours": b.min_part_hours, "devs": devs(b.devs)}))
    except Exception as e:
        print(json.dumps({"kind": "builder", "name": name, "error": str(e)}))
for f in sorted(glob.glob(os.path.join(DIR, "*.ring.gz"))):
    name = os.path.basename(f)[:-len(".ring.gz")]
    try:
        r = RingData.load(f)
        with open(f, "rb") as fh:
            s = hashlib.md5(fh.read()).hexdigest()
        print(json.dumps({"kind": "ring", "name": name, "part_power": 32 - r._part_shift,
                          "replicas": len(r._replica2part2dev_id), "sum": s, "devs": devs(r.devs)}))
    except Exception as e:
        print(json.dumps({"kind": "ring", "name": name, "error": str(e)}))
`

// Probe runs probeScript on every host at once and parses what each
// printed, reading a host again (DefaultSettle) while a server whose conf
// it has does not run; a host that cannot be reached or read is in the
// error (joined, each naming its host), the others' facts are returned in
// hosts' order.
func Probe(ctx context.Context, r Runner, hosts []string) ([]*Facts, error) {
	return ProbeSettle(ctx, r, hosts, DefaultSettle)
}

// ProbeSettle is Probe with the re-reads bounded by s.
func ProbeSettle(ctx context.Context, r Runner, hosts []string, s Settle) ([]*Facts, error) {
	var mu sync.Mutex
	got := map[string]*Facts{}
	err := r.FanOut(ctx, hosts, func(ctx context.Context, host string) error {
		f, err := s.settle(ctx, host, func() (*Facts, error) { return probeHost(ctx, r, host) })
		if err != nil {
			return err
		}
		mu.Lock()
		got[host] = f
		mu.Unlock()
		return nil
	}).Err()
	var out []*Facts
	for _, h := range hosts {
		if f := got[h]; f != nil {
			out = append(out, f)
		}
	}
	return out, err
}

// probeHost runs probeScript on host once and parses its output.
func probeHost(ctx context.Context, r Runner, host string) (*Facts, error) {
	res, err := r.Run(remote.Quiet(ctx), host, probeScript)
	if err != nil {
		return nil, fmt.Errorf("%s: reading the host: %w", host, err)
	}
	f, err := ParseProbe(host, res.Stdout)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", host, err)
	}
	return f, nil
}

// ParseProbe reads probeScript's output of host.
func ParseProbe(host string, out []byte) (*Facts, error) {
	f := &Facts{Host: host, Confs: map[string][]byte{}, PidFiles: map[int]string{}, Mounts: map[string]Mount{}}
	// A part starts at a mark that starts a line: a mark inside a line
	// is data (a process's command line may hold any byte).
	for _, part := range bytes.Split(append([]byte("\n"), out...), []byte("\n"+mark))[1:] {
		head, body, _ := bytes.Cut(part, []byte("\n"))
		kind, arg, _ := strings.Cut(string(head), " ")
		if err := f.readPart(kind, arg, body); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// readPart reads one part of the probe's output into f.
func (f *Facts) readPart(kind, arg string, body []byte) error {
	lines := nonEmptyLines(body)
	switch kind {
	case "version":
		if len(lines) > 0 {
			f.Version = lines[0]
		}
	case "addrs":
		for _, l := range lines {
			f.Addrs = append(f.Addrs, strings.Fields(l)...)
		}
	case "swift-init":
		f.SwiftInit = len(lines) > 0
	case "conf":
		f.Confs[arg] = body // the file as it is: the line end that say adds after it went with the next mark
	case "rings":
		return f.readRings(lines)
	case "procs":
		f.readProcs(lines)
	case "pidfiles":
		for _, l := range lines {
			pid, file, _ := strings.Cut(l, " ")
			if n, err := strconv.Atoi(pid); err == nil {
				f.PidFiles[n] = file
			}
		}
	case "devices":
		f.DevicesDir, f.DeviceDirs = arg, lines
	case "mounts":
		for _, l := range lines {
			if w := strings.Fields(l); len(w) == 3 {
				f.Mounts[w[0]] = Mount{Source: w[1], FSType: w[2]}
			}
		}
	}
	return nil
}

// readRings reads ringsPy's JSON lines.
func (f *Facts) readRings(lines []string) error {
	for _, l := range lines {
		var d RingDump
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			return fmt.Errorf("reading the rings' dump: %w", err)
		}
		if d.Kind == "error" {
			f.RingError = d.Error
			continue
		}
		f.Rings = append(f.Rings, d)
	}
	return nil
}

// readProcs reads "pid ppid pgid unit args..." lines, and counts the
// "elsewhere pid [args...]" ones that are Swift's programs (not a shell
// whose command line names one, such as another host's probe).
func (f *Facts) readProcs(lines []string) {
	for _, l := range lines {
		w := strings.Fields(l)
		if len(w) >= 2 && w[0] == "elsewhere" {
			if role, _, _ := program(w[2:]); role != "" || len(w) == 2 {
				f.Elsewhere++
			}
			continue
		}
		if len(w) < 5 {
			continue
		}
		pid, e1 := strconv.Atoi(w[0])
		ppid, e2 := strconv.Atoi(w[1])
		pgid, e3 := strconv.Atoi(w[2])
		if e1 != nil || e2 != nil || e3 != nil {
			continue
		}
		p := Proc{PID: pid, PPID: ppid, PGID: pgid, Args: w[4:]}
		if w[3] != "-" {
			p.Unit = w[3]
		}
		f.Procs = append(f.Procs, p)
	}
}

func nonEmptyLines(b []byte) []string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
