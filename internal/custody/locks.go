package custody

import (
	"context"
	"slices"
	"strconv"
	"sync"

	"benchbed/internal/cluster"
	"benchbed/internal/step"
	"benchbed/plan/schedule"
	"benchbed/results/rundir"
)

// Locks are a run's sweep locks on its hosts, as the sweep's lock step
// and `benchbed restore` take them (Take) and their undo releases them
// (Release): one protocol for both. A host whose originals are not back
// keeps its lock (Keep), so that no other sweep starts on a half-restored
// lab until `benchbed restore` puts them back.
type Locks struct {
	Pool    cluster.Runner
	Hosts   []string
	Run     string                        // the run id the locks are held for
	Force   bool                          // remove another sweep's locks (--break-lock)
	Journal *step.Runner                  // journals each stale lock taken over
	Log     func(format string, a ...any) // says each stale lock taken over (nil: none)

	mu    sync.Mutex
	taken bool     // Take took every host's lock
	kept  []string // hosts that keep their lock (Keep)
}

// Take takes the lock on every host (Lock); each stale lock taken over is
// said and journaled (step lock, the host, who held it). A refused lock
// leaves the locks as they were: those of the run stay with it.
func (l *Locks) Take(ctx context.Context) error {
	stale, err := Lock(ctx, l.Pool, l.Hosts, NewHolder(l.Run), l.Force)
	if err != nil {
		return err
	}
	l.mu.Lock()
	l.taken = true
	l.mu.Unlock()
	for _, st := range stale {
		if l.Log != nil {
			l.Log("%s", st)
		}
		l.Journal.Add(rundir.Entry{Step: string(schedule.StepLock), Host: st.Host, Status: rundir.StepOK, Detail: st.String(),
			Data: map[string]string{"stale_run": st.Holder.Run, "stale_pid": strconv.Itoa(st.Holder.PID)}})
	}
	return nil
}

// Keep marks hosts whose originals are not back: Release leaves their lock.
func (l *Locks) Keep(hosts ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.kept = append(l.kept, hosts...)
}

// Release releases the locks Take took, but on the hosts kept (Keep).
func (l *Locks) Release(ctx context.Context) error {
	l.mu.Lock()
	taken := l.taken
	hosts := slices.DeleteFunc(slices.Clone(l.Hosts), func(h string) bool { return slices.Contains(l.kept, h) })
	l.mu.Unlock()
	if !taken {
		return nil
	}
	return Unlock(ctx, l.Pool, hosts, l.Run)
}
