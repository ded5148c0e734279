package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"benchbed/load"
	"benchbed/results"

	"github.com/spf13/cobra"
)

func init() { register(newAgentCmd) }

func newAgentCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "agent",
		Short: "Run a load job read as JSON from stdin; stream histograms as JSON lines on stdout",
		Long: "The load agent the orchestrator starts on client hosts. It reads one job (JSON, one line) on\n" +
			"stdin, refuses it when the clocks differ by more than 100 ms, writes ready, interval, progress,\n" +
			"done or error events as JSON lines on stdout, and stops when stdin closes or on SIGTERM,\n" +
			"leaving nothing running.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			restore := func() {}
			defer func() { restore() }()
			return load.RunAgent(ctx, cmd.InOrStdin(), cmd.OutOrStdout(), func(users int, fill *results.FillSpec) {
				mem, procs := load.SetMemoryLimit(users, fill), load.SetProcs(0, users)
				restore = func() { mem(); procs() }
			})
		},
	}
}
