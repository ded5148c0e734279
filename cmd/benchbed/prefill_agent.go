package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"benchbed/load/prefill"

	"github.com/spf13/cobra"
)

func init() { register(newPrefillAgentCmd) }

func newPrefillAgentCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "prefill-agent",
		Short: "Fill a share of a prefill read as JSON from stdin; report units done as JSON lines",
		Long: "The prefill agent the orchestrator starts on client hosts. It reads one job (JSON, one line) on\n" +
			"stdin, puts the initial objects of its units that are not there yet, writes ready, unit, progress,\n" +
			"done or error events as JSON lines on stdout, and stops when stdin closes or on SIGTERM.",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if err := prefill.RunAgent(ctx, cmd.InOrStdin(), cmd.OutOrStdout()); err != nil {
				return exitCode(1) // the error went to stdout as an event
			}
			return nil
		},
	}
}
