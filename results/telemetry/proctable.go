package telemetry

import (
	"os"
	"path/filepath"
	"strconv"
)

// procTable finds the processes of a host's services and measures them
// round after round. A process's command line is read once, when its pid
// is first seen; only the services' processes are read every round.
type procTable struct {
	fs       FS
	services []ServiceSpec
	netns    string         // the agent's network namespace: only its processes are this host's
	seen     map[string]int // pid -> index in services, -1 for none
	prev     map[string]PidStat
}

func newProcTable(fs FS, services []ServiceSpec) *procTable {
	ns, _ := os.Readlink(filepath.Join(fs.Proc, "self", "ns", "net"))
	return &procTable{fs: fs, services: services, netns: ns, seen: map[string]int{}, prev: map[string]PidStat{}}
}

// counts returns the processes found per service in the last round.
func (t *procTable) counts() map[string]int {
	out := make(map[string]int, len(t.services))
	for _, s := range t.services {
		out[s.Name] = 0
	}
	for pid := range t.prev {
		out[t.services[t.seen[pid]].Name]++
	}
	return out
}

// round measures every service over dt seconds since the last round. A
// process first seen in this round counts from this round on.
func (t *procTable) round(dt float64) (map[string]Procs, error) {
	d, err := os.Open(t.fs.Proc)
	if err != nil {
		return nil, err
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return nil, err
	}
	out := make(map[string]Procs, len(t.services))
	for _, s := range t.services {
		out[s.Name] = Procs{}
	}
	alive := make(map[string]bool, len(names))
	next := map[string]PidStat{}
	for _, pid := range names {
		if _, err := strconv.Atoi(pid); err != nil {
			continue
		}
		alive[pid] = true
		svc := t.service(pid)
		if svc < 0 {
			continue
		}
		st, rss, err := t.fs.readPid(pid)
		if err != nil { // gone meanwhile
			continue
		}
		p := out[t.services[svc].Name]
		p.N++
		p.RSS += rss
		if old, ok := t.prev[pid]; ok && old.Start == st.Start && st.Ticks >= old.Ticks && dt > 0 {
			p.CPU += float64(st.Ticks-old.Ticks) / userHZ / dt * 100
		}
		out[t.services[svc].Name] = p
		next[pid] = st
	}
	for pid := range t.seen {
		if !alive[pid] {
			delete(t.seen, pid)
		}
	}
	t.prev = next
	return out, nil
}

// service returns the index of pid's service, or -1: from the cache, or
// from its command line, for a process in the agent's network namespace.
func (t *procTable) service(pid string) int {
	if i, ok := t.seen[pid]; ok {
		return i
	}
	i := -1
	if cmd, err := os.ReadFile(filepath.Join(t.fs.Proc, pid, "cmdline")); err == nil && len(cmd) > 0 {
		for j, s := range t.services {
			if s.matches(cmd) && t.sameNet(pid) {
				i = j
				break
			}
		}
	} else if err != nil {
		return -1 // gone, or not readable yet: look again next round
	}
	t.seen[pid] = i
	return i
}

// sameNet says whether pid is in the agent's network namespace (lab hosts
// share one kernel and see each other's processes); true when either
// namespace cannot be read.
func (t *procTable) sameNet(pid string) bool {
	if t.netns == "" {
		return true
	}
	ns, err := os.Readlink(filepath.Join(t.fs.Proc, pid, "ns", "net"))
	return err != nil || ns == t.netns
}
