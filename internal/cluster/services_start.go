package cluster

import (
	"context"
	"errors"
	"strconv"

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
	acts := make([]string, len(ds))
	keys := make([]string, len(ds))
	for i := range ds {
		keys[i] = strconv.Itoa(i)
	}
	sum := remote.FanOut(ctx, StartParallel, keys, func(ctx context.Context, key string) error {
		i, _ := strconv.Atoi(key)
		act, err := StartDaemon(ctx, p, host, ds[i], changed[ds[i].Service()] || (restartAll && ds[i].Name != "memcached"))
		acts[i] = act
		return err
	})
	ReportActs(rep, host, ds, acts)
	for _, r := range sum.Results {
		if r.Err != nil {
			return r.Err
		}
	}
	return nil
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
