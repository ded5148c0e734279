package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"benchbed/load"
	"benchbed/load/replay"
	"benchbed/plan/proxylog"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// replayFlags are `benchbed load --replay`'s options.
type replayFlags struct {
	logs       []string
	speed      float64
	template   string
	containers int
}

// addReplayFlags adds the replay's flags to fl.
func addReplayFlags(fl *pflag.FlagSet, f *replayFlags) {
	fl.StringArrayVar(&f.logs, "replay", nil, "replay this Swift proxy access log (repeat for one per proxy; merged by time) instead of a scenario")
	fl.Float64Var(&f.speed, "speed", 1, "replay: time runs this many times faster than logged")
	fl.StringVar(&f.template, "log-template", proxylog.DefaultTemplate, "replay: the proxies' log_msg_template")
	fl.IntVar(&f.containers, "replay-containers", 10, "replay: containers the replayed objects spread over (replay_000000...)")
}

// runReplay replays the logs against the endpoint and prints the table.
func runReplay(cmd *cobra.Command, f loadCmdFlags) error {
	if f.replay.speed <= 0 || f.replay.containers < 1 {
		return usagef(cmd, "--speed must be > 0 and --replay-containers >= 1")
	}
	tp, err := proxylog.Compile(f.replay.template)
	if err != nil {
		return usagef(cmd, "--log-template: %v", err)
	}
	for _, p := range f.replay.logs {
		if _, err := os.Stat(p); err != nil {
			return inputError(err)
		}
	}
	if f.auth.Key == "" && f.auth.URL != "" {
		f.auth.Key = os.Getenv("BENCHBED_AUTH_KEY")
	}
	if f.auth.Token == "" && f.auth.StorageURL != "" {
		f.auth.Token = os.Getenv("BENCHBED_TOKEN")
	}
	users := max(f.users, 1)
	if f.users == 0 {
		users = 64
	}
	hc := &http.Client{Transport: load.NewTransport(users)}
	auth, err := f.auth.NewAuth(hc)
	if err != nil {
		return usagef(cmd, "%w (flags --auth-url --user --key, or --storage-url --token)", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg := replay.Config{Client: &load.Client{HTTP: hc, Auth: auth, MaxRetries: 3}, Template: tp,
		Logs: f.replay.logs, Speed: f.replay.speed, Containers: f.replay.containers, Users: users}
	res, err := replay.Run(ctx, cfg, f.initial == "skip")
	if res == nil || ctx.Err() != nil {
		return interrupted(ctx, err)
	}
	if res.Stats.Garbled > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "benchbed: note: %d lines did not parse; the first: %s\n", res.Stats.Garbled, res.Stats.FirstGarbled)
	}
	if werr := replay.WriteTable(cmd.OutOrStdout(), res); werr != nil {
		return werr
	}
	return err
}
