package cluster

import (
	"context"
	"errors"

	"benchbed/remote"
)

// StartParallel is how many of one host's daemons start or restart at
// once: each holds an SSH session (sshd's MaxSessions is 10 by default,
// and the health wait's watcher takes one more).
const StartParallel = 4

// StartServices starts host's daemons that are not running and restarts
// those whose confs changed (restartAll: every Swift server, after a
// swift.conf change). The daemons of a host are independent processes on
// their own ports, so they start and restart side by side (at most
// StartParallel at once): a host's restart costs its slowest daemon's, not
// their sum. Changes are reported, and the first failure returned, in the
// daemons' order.
func StartServices(ctx context.Context, p Runner, host string, ds []Daemon, changed map[string]bool, restartAll bool, rep *Report) error {
	idx := make([]int, len(ds))
	for i := range ds {
		idx[i] = i
	}
	return actOn(ctx, host, ds, idx, make([]string, len(ds)), rep, func(ctx context.Context, i int) (string, error) {
		return StartDaemon(ctx, p, host, ds[i], bringWanted(ds[i], changed, restartAll))
	})
}

// bringWanted says whether daemon d is to be brought to its files: its
// service's changed, or all of a host's Swift servers are (memcached is
// none of them).
func bringWanted(d Daemon, changed map[string]bool, all bool) bool {
	return changed[d.Service()] || (all && d.Name != "memcached")
}

// actOn runs act for the daemons of ds at idx side by side (at most
// StartParallel at once), keeping what each did in acts; acts are
// reported, and the first failure returned, in the daemons' order.
func actOn(ctx context.Context, host string, ds []Daemon, idx []int, acts []string, rep *Report, act func(ctx context.Context, i int) (string, error)) error {
	err := remote.FanOutIndexes(ctx, StartParallel, idx, func(ctx context.Context, i int) error {
		var err error
		acts[i], err = act(ctx, i)
		return err
	})
	ReportActs(rep, host, ds, acts)
	return err
}

// StartDaemon starts d on host when it is not running, or restarts it
// when restart is set, and says which it did ("start", "restart" or "").
func StartDaemon(ctx context.Context, p Runner, host string, d Daemon, restart bool) (string, error) {
	_, err := p.Run(ctx, host, d.StatusScript())
	running := err == nil
	var exit *remote.ExitError
	if err != nil && !errors.As(err, &exit) {
		return "", err
	}
	switch {
	case !running:
		if _, err := p.Run(ctx, host, d.StartScript()); err != nil {
			return "", withJournal(ctx, p, host, d, ScriptFailed(host, "starting "+d.Name, err))
		}
		return "start", nil
	case restart:
		if _, err := p.Run(ctx, host, d.RestartScript()); err != nil {
			return "", withJournal(ctx, p, host, d, ScriptFailed(host, "restarting "+d.Name, err))
		}
		return "restart", nil
	}
	return "", nil
}
