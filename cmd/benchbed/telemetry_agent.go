package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"benchbed/results/telemetry"
)

func init() { register(newTelemetryAgentCmd) }

func newTelemetryAgentCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "telemetry-agent",
		Short: "Sample this host from /proc and /sys; stream the samples as JSON lines",
		Long: "The telemetry agent the orchestrator starts on every host of a testbed. It reads its config (JSON,\n" +
			"one line) on stdin, writes a ready line, then one sample per interval (CPU, memory, network, the\n" +
			"testbed's disks, the services' processes, its own cost) as JSON lines on stdout, tagged with the\n" +
			`phase the {"phase":"run"} lines of stdin set, and stops when stdin closes or on SIGTERM.`,
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if err := telemetry.RunAgent(ctx, telemetry.HostFS, cmd.InOrStdin(), cmd.OutOrStdout()); err != nil {
				return exitCode(1) // the error went to stdout as a line
			}
			return nil
		},
	}
}
