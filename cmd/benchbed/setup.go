package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"benchbed/internal/cluster"
	"benchbed/internal/setup"
	"benchbed/remote"

	"github.com/spf13/cobra"
)

func init() { register(newSetupCmd) }

func newSetupCmd() *cobra.Command {
	var lf *loadFlags
	var health time.Duration
	var quiet bool
	cmd := &cobra.Command{
		Use:   "setup FILE",
		Short: "Turn the testbed's hosts into a healthy Swift cluster (disks, swift.conf, rings, confs, services); idempotent",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			tb, err := lf.load(cmd, args[0])
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			var ropts []remote.Option
			if !quiet {
				ropts = append(ropts, cluster.LiveOutput(tb, cmd.ErrOrStderr()))
			}
			p, err := cluster.NewPool(tb, ropts...)
			if err != nil {
				return err
			}
			defer p.Close()
			opts := setup.Options{Log: cmd.ErrOrStderr(), HealthTimeout: health}
			rep, err := setup.Run(ctx, tb, p, opts)
			if rep != nil {
				if werr := rep.Write(cmd.OutOrStdout(), tb.Mask); werr != nil && err == nil {
					err = werr
				}
			}
			if err != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), "benchbed: setup:", tb.Mask(err.Error()))
				return exitCode(1)
			}
			return nil
		},
	}
	lf = addLoadFlags(cmd)
	lf.addConnectFlags(cmd)
	cmd.Flags().DurationVar(&health, "health-timeout", time.Minute, "how long each server may take to answer /healthcheck")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "do not stream the hosts' command output")
	return cmd
}
