package custody

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/user"
	"slices"
	"strings"
	"sync"
	"time"

	"benchbed/internal/cluster"
	"benchbed/remote"
)

// Holder says who holds a sweep lock, and since when.
type Holder struct {
	Run   string    `json:"run"`   // the run id
	By    string    `json:"by"`    // user@machine of the orchestrator
	PID   int       `json:"pid"`   // its process id
	Since time.Time `json:"since"` // when it was taken
}

// NewHolder describes this process holding the lock for run.
func NewHolder(run string) Holder {
	by := "unknown"
	if u, err := user.Current(); err == nil {
		by = u.Username
	}
	host, _ := os.Hostname()
	return Holder{Run: run, By: by + "@" + host, PID: os.Getpid(), Since: time.Now().UTC().Truncate(time.Second)}
}

// String describes the Holder in a refusal.
func (h Holder) String() string {
	return fmt.Sprintf("run %s by %s (pid %d) since %s", h.Run, h.By, h.PID, h.Since.Format(time.RFC3339))
}

// lockError is a host's lock held by another run.
type lockError struct {
	Host   string
	Holder Holder
}

func (e *lockError) Error() string {
	return fmt.Sprintf("%s: locked by another sweep: %s (use --break-lock if it is gone)", e.Host, e.Holder)
}

// lockScript takes the lock (or reports the Holder's line); with force an
// existing lock is removed first.
func lockScript(h Holder, force bool) string {
	b, _ := json.Marshal(h)
	s := ""
	if force {
		s = "rm -rf " + LockDir + "\n"
	}
	return s + "if mkdir " + LockDir + " 2>/dev/null; then printf '%s\\n' " + remote.Quote(string(b)) + " > " + LockDir +
		"/holder; echo taken; else echo \"held $(cat " + LockDir + "/holder 2>/dev/null)\"; fi"
}

// Lock takes the sweep lock on every host. A lock of the same run (a
// resumed sweep, a restore) is taken over; so is a stale lock, one whose
// Holder ran on this machine (its user@machine) with a process that no
// longer runs a benchbed: those are returned, for the caller to say and
// journal. Another run's live lock, or one of another machine, is refused
// with its Holder, unless force. On a refusal the locks this call created
// are released; those it took over stay with their run, whose changes may
// still be on the hosts.
func Lock(ctx context.Context, r cluster.Runner, hosts []string, h Holder, force bool) ([]StaleLock, error) {
	var mu sync.Mutex
	var taken []string
	var stale []StaleLock
	err := r.FanOut(ctx, hosts, func(ctx context.Context, host string) error {
		out, err := runLock(ctx, r, host, lockScript(h, force))
		if err != nil {
			return err
		}
		if out == "taken" {
			mu.Lock()
			taken = append(taken, host)
			mu.Unlock()
			return nil
		}
		line := strings.TrimPrefix(out, "held ")
		var other Holder
		if err := json.Unmarshal([]byte(line), &other); err != nil {
			return fmt.Errorf("%s: %s exists without a readable Holder (%q); remove it or use --break-lock", host, LockDir, out)
		}
		if other.Run == h.Run {
			return nil
		}
		if !other.staleFor(h) {
			return &lockError{Host: host, Holder: other}
		}
		if err := takeOver(ctx, r, host, line, h); err != nil {
			return err
		}
		mu.Lock()
		taken = append(taken, host)
		stale = append(stale, StaleLock{Host: host, Holder: other})
		mu.Unlock()
		return nil
	}).Err()
	if err != nil {
		return nil, errors.Join(err, Unlock(context.WithoutCancel(ctx), r, taken, h.Run))
	}
	slices.SortFunc(stale, func(a, b StaleLock) int { return strings.Compare(a.Host, b.Host) })
	return stale, nil
}

// Unlock releases the locks of run on hosts (another run's are left), in
// LockDir and, for a run of an earlier version, in oldLockDir.
func Unlock(ctx context.Context, r cluster.Runner, hosts []string, run string) error {
	mine := remote.Quote(`"run":"` + run + `"`)
	script := "grep -qF " + mine + " " + LockDir + "/holder 2>/dev/null && rm -rf " + LockDir + "\n" +
		"[ ! -L " + oldLockDir + " ] && grep -qF " + mine + " " + oldLockDir + "/holder 2>/dev/null && rm -rf " + oldLockDir + "; true"
	return r.FanOut(ctx, hosts, func(ctx context.Context, host string) error {
		_, err := runLock(ctx, r, host, script)
		return err
	}).Err()
}
