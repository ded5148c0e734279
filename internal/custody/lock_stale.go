package custody

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"benchbed/internal/cluster"
	"benchbed/remote"
)

// StaleLock is a sweep lock taken over on a host because its Holder is gone:
// it ran on this machine and its process no longer runs a benchbed.
type StaleLock struct {
	Host   string
	Holder Holder
}

// String says what was taken over and why, for the log and the journal.
func (s StaleLock) String() string {
	return fmt.Sprintf("%s: took over a stale lock: %s; pid %d no longer runs a benchbed on this machine",
		s.Host, s.Holder, s.Holder.PID)
}

// staleFor reports whether Holder h's lock is stale for me: both ran on
// the same machine as the same user (a pid means nothing elsewhere) and
// h's process is gone, or is no longer a benchbed (its pid was reused).
func (h Holder) staleFor(me Holder) bool {
	return h.By == me.By && h.PID > 0 && h.PID != me.PID && !benchbedAlive(h.PID)
}

// takeOver replaces host's lock by me's, only if its Holder line is still
// held (the exact line read before): a sweep that took it meanwhile keeps
// it and this one is refused.
func takeOver(ctx context.Context, r cluster.Runner, host, held string, me Holder) error {
	b, _ := json.Marshal(me)
	script := "if [ \"$(cat " + LockDir + "/holder 2>/dev/null)\" = " + remote.Quote(held) + " ]; then printf '%s\\n' " +
		remote.Quote(string(b)) + " > " + LockDir + "/holder.new && mv -f " + LockDir + "/holder.new " + LockDir +
		"/holder && echo taken; else echo \"held $(cat " + LockDir + "/holder 2>/dev/null)\"; fi"
	out, err := runLock(ctx, r, host, script)
	if err != nil {
		return err
	}
	if out == "taken" {
		return nil
	}
	var other Holder
	if json.Unmarshal([]byte(strings.TrimPrefix(out, "held ")), &other) == nil && other.Run != "" {
		return &lockError{Host: host, Holder: other}
	}
	return fmt.Errorf("%s: the stale lock changed while being taken over (%q); try again", host, out)
}
