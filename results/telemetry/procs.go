package telemetry

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// userHZ is the unit of /proc/<pid>/stat's CPU times: Linux reports
// USER_HZ, 100 on every architecture it runs on today.
const userHZ = 100

// ServiceSpec is one service of a host: its name and the program names
// of its processes (the basename of one of the first three words of a
// process's command line: "swift-object-server" matches
// "/usr/bin/python3 /usr/bin/swift-object-server /etc/swift/object-server.conf"
// and every child it forks, servers_per_port's included).
type ServiceSpec struct {
	Name  string   `json:"name"`
	Match []string `json:"match"`
}

// matches says whether the command line (NUL separated) is the service's.
func (s ServiceSpec) matches(cmdline []byte) bool {
	args := bytes.Split(bytes.TrimRight(cmdline, "\x00"), []byte{0})
	for i, a := range args {
		if i == 3 {
			break
		}
		base := filepath.Base(string(a))
		for _, m := range s.Match {
			if base == m {
				return true
			}
		}
	}
	return false
}

// PidStat is what one process's /proc/<pid>/stat and statm tell.
type PidStat struct {
	PPid  int
	Ticks uint64 // user and system CPU, in USER_HZ ticks
	Start uint64 // start time after boot, in ticks (tells a reused pid)
}

// ParsePidStat reads /proc/<pid>/stat (the command name, in parentheses,
// may hold spaces and parentheses).
func ParsePidStat(b []byte) (PidStat, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return PidStat{}, fmt.Errorf("stat: no command name in %q", b)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return PidStat{}, fmt.Errorf("stat: %d fields after the name, want 20", len(f))
	}
	var v [4]uint64
	for j, k := range []int{1, 11, 12, 19} { // ppid, utime, stime, starttime
		n, err := strconv.ParseUint(f[k], 10, 64)
		if err != nil {
			return PidStat{}, fmt.Errorf("stat: field %d: %w", k+3, err)
		}
		v[j] = n
	}
	return PidStat{PPid: int(v[0]), Ticks: v[1] + v[2], Start: v[3]}, nil
}

// ParseStatm returns the resident pages of /proc/<pid>/statm.
func ParseStatm(b []byte) (uint64, error) {
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, fmt.Errorf("statm: %q", b)
	}
	return strconv.ParseUint(f[1], 10, 64)
}

// readPid reads one process's stat and resident MB.
func (fs FS) readPid(pid string) (PidStat, float64, error) {
	b, err := os.ReadFile(filepath.Join(fs.Proc, pid, "stat"))
	if err != nil {
		return PidStat{}, 0, err
	}
	st, err := ParsePidStat(b)
	if err != nil {
		return PidStat{}, 0, fmt.Errorf("/proc/%s/%w", pid, err)
	}
	b, err = os.ReadFile(filepath.Join(fs.Proc, pid, "statm"))
	if err != nil {
		return PidStat{}, 0, err
	}
	pages, err := ParseStatm(b)
	if err != nil {
		return PidStat{}, 0, fmt.Errorf("/proc/%s/%w", pid, err)
	}
	return st, float64(pages) * float64(os.Getpagesize()) / mb, nil
}
