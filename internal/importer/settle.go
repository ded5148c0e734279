package importer

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"
)

// Settle bounds how Probe reads a host again when a Swift server whose
// conf the host has does not run: it may be between two processes (a
// restart, or a start its manager has not finished) as the host is read,
// and what the import writes of it (its manager, its daemons) would then
// be a guess.
type Settle struct {
	Reads int           // reads of a host in all, the first one included (<= 1: no re-read)
	Wait  time.Duration // between two reads of a host
	// OnWait, when set, is told before each wait: the host, the servers
	// that do not run there, the read that comes next and the reads in all.
	OnWait func(host string, missing []string, next, reads int)
}

// DefaultSettle waits up to 10 s, 2 s at a time: a directly started
// server's stop and start (cluster.Daemon's restart) takes a few seconds
// on a loaded host, systemd's and swift-init's about as long.
var DefaultSettle = Settle{Reads: 6, Wait: 2 * time.Second}

// Reread says how a host was read again because a server whose conf it has
// did not run at the first read.
type Reread struct {
	Missing []string      // servers not running at the first read ("account-server"), sorted
	Still   []string      // of Missing, those that ran at no read
	Reads   int           // reads of the host in all
	After   time.Duration // from the first read to the last
}

// NotRunning returns the servers ("account-server") whose conf
// (/etc/swift/ROLE-server.conf) the host has but of which no process runs
// there, sorted.
func (f *Facts) NotRunning() []string {
	running := map[string]bool{}
	for _, s := range f.Servers() {
		if s.Kind == "server" {
			running[s.Role] = true
		}
	}
	var out []string
	for _, role := range serverRoles {
		name := role + "-server"
		if _, ok := f.Confs[path.Join("/etc/swift", name+".conf")]; ok && !running[role] {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// settle reads host with read until every server whose conf it has runs,
// at most s.Reads times, and returns the last read with its Reread (nil
// when the first read found every server running).
func (s Settle) settle(ctx context.Context, host string, read func() (*Facts, error)) (*Facts, error) {
	f, err := read()
	if err != nil {
		return nil, err
	}
	missing := f.NotRunning()
	if len(missing) == 0 || s.Reads <= 1 {
		return f, nil
	}
	rr := &Reread{Missing: missing, Still: missing, Reads: 1}
	start := time.Now()
	for rr.Reads < s.Reads && len(rr.Still) > 0 {
		if s.OnWait != nil {
			s.OnWait(host, rr.Still, rr.Reads+1, s.Reads)
		}
		if err := sleepCtx(ctx, s.Wait); err != nil {
			return nil, err
		}
		next, err := read()
		if err != nil {
			return nil, err
		}
		rr.Reads++
		f, rr.Still = next, intersect(missing, next.NotRunning())
	}
	rr.After = time.Since(start)
	f.Reread = rr
	return f, nil
}

// intersect returns the elements of a (sorted) that b has.
func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// sleepCtx waits d, or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// rereadDiags says, for each host read again, which servers were not
// running at its first read and whether a later read found them.
func (d *draft) rereadDiags(facts []*Facts) {
	for _, f := range facts {
		rr := f.Reread
		if rr == nil {
			continue
		}
		found := complement(rr.Missing, rr.Still)
		if len(found) > 0 {
			d.Diags.add(Note, f.Host, "%s did not run at the first read (its conf is there: stopped or restarting?); read again: running %s later, at read %d of the host; described from that read",
				strings.Join(found, ", "), roundDur(rr.After), rr.Reads)
		}
		if len(rr.Still) > 0 {
			d.Diags.add(Warning, f.Host, "%s configured (its conf is in /etc/swift) but not running: read %d times over %s, it ran at none",
				strings.Join(rr.Still, ", "), rr.Reads, roundDur(rr.After))
		}
	}
}

// complement returns the elements of a that b does not have.
func complement(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// roundDur is d to a tenth of a second, as "2.0 s".
func roundDur(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }
