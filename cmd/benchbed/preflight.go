package main

import (
	"bytes"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"benchbed/internal/cluster"
	"benchbed/remote"

	"github.com/spf13/cobra"
)

func init() { register(newPreflightCmd) }

// preflightCommands are what setup and sweep run on the hosts besides Swift.
var preflightCommands = []string{"python3", "ss", "sha256sum", "cp", "date"}

func newPreflightCmd() *cobra.Command {
	var lf *loadFlags
	var acceptNew bool
	var require []string
	cmd := &cobra.Command{
		Use:   "preflight FILE",
		Short: "Check every host before any change: reachable, host key known, sudo works, SFTP, required commands (one table), storage policies",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			tb, err := lf.load(cmd, args[0])
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			cfgs := cluster.PoolConfigs(tb)
			for i := range cfgs {
				cfgs[i].AcceptNewHostKeys = acceptNew
			}
			p, err := remote.NewPool(cfgs, remote.Parallelism(tb.SSH.Parallelism))
			if err != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), "benchbed: preflight:", tb.Mask(err.Error()))
				return exitCode(1)
			}
			defer p.Close()
			rep := remote.Preflight(ctx, p, append(require, preflightCommands...))
			var table bytes.Buffer
			if err := rep.Render(&table); err != nil {
				return err
			}
			fmt.Fprint(cmd.OutOrStdout(), tb.Mask(table.String()))
			if err := rep.Err(); err != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), "benchbed: preflight:", tb.Mask(err.Error()))
				return exitCode(1)
			}
			if err := cluster.CheckPolicies(ctx, p, tb); err != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), "benchbed: preflight:", tb.Mask(err.Error()))
				return exitCode(1)
			}
			cats, err := cluster.CheckOptions(ctx, p, tb)
			for _, hc := range cats {
				fmt.Fprintf(cmd.OutOrStdout(), "settings: %s: Swift %s, checked against %s\n", strings.Join(hc.Hosts, ", "), hc.Version, hc.From)
			}
			if err != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), "benchbed: preflight:", tb.Mask(err.Error()))
				return exitCode(1)
			}
			return nil
		},
	}
	lf = addLoadFlags(cmd)
	cmd.Flags().BoolVar(&acceptNew, "accept-new-host-keys", false,
		"record the host keys of hosts not yet in known_hosts (like OpenSSH's accept-new); a changed key is still refused")
	cmd.Flags().StringSliceVar(&require, "require", nil, "more commands that must be on every host's PATH")
	return cmd
}
