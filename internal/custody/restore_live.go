package custody

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"benchbed/internal/cluster"
)

// runningError is a restore refused because the run's sweep still runs:
// restoring under it would change the hosts while it measures them.
type runningError struct {
	Holder Holder
}

func (e *runningError) Error() string {
	return fmt.Sprintf("the sweep of run %s is still running (pid %d on this machine, since %s): "+
		"stop it first (an interrupt restores the lab itself)", e.Holder.Run, e.Holder.PID, e.Holder.Since.Format("2006-01-02T15:04:05Z07:00"))
}

// checkNotRunning refuses with a *runningError when a host's lock names run
// and a process of this machine (user@machine as in the lock) that is
// still alive and is a benchbed. Unreachable hosts are skipped here: the
// restore reports them.
func checkNotRunning(ctx context.Context, r cluster.Runner, hosts []string, run string) error {
	me := NewHolder(run)
	var mu sync.Mutex
	var live *Holder
	_ = r.FanOut(ctx, hosts, func(ctx context.Context, host string) error {
		out, err := runLock(ctx, r, host, "cat "+LockDir+"/holder 2>/dev/null || cat "+oldLockDir+"/holder 2>/dev/null; true")
		if err != nil {
			return nil
		}
		var h Holder
		if json.Unmarshal([]byte(out), &h) != nil || h.Run != run {
			return nil
		}
		if h.By == me.By && h.PID != me.PID && benchbedAlive(h.PID) {
			mu.Lock()
			live = &h
			mu.Unlock()
		}
		return nil
	}).Err()
	if live != nil {
		return &runningError{Holder: *live}
	}
	return nil
}

// benchbedAlive reports whether process pid exists and, where /proc tells,
// runs a benchbed binary (a reused pid is not the sweep).
func benchbedAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && err != syscall.EPERM {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return !dirExists("/proc/self")
	}
	argv0, _, _ := strings.Cut(string(b), "\x00")
	return strings.Contains(argv0, "benchbed")
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
