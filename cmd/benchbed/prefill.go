package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"benchbed/internal/agents"
	"benchbed/internal/cluster"
	"benchbed/results/rundir"

	"github.com/spf13/cobra"
)

func init() { register(newPrefillCmd) }

func newPrefillCmd() *cobra.Command {
	var lf *loadFlags
	var stateDir string
	var noVerify, asJSON bool
	var every time.Duration
	cmd := &cobra.Command{
		Use:   "prefill FILE",
		Short: "Create the workloads' initial objects from agents on the client hosts; resumable, verified by listing",
		Long: "Puts the initial objects of the workloads the prefill block names (ssbench's names, so either\n" +
			"tool's prefill is reused) from agents_per_client agents on every client host. A checkpoint of\n" +
			"the finished units is kept under the state directory, so a killed prefill goes on where it\n" +
			"stopped; then every container is listed and what is missing or of the wrong size is put again.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			tb, err := lf.load(cmd, args[0])
			if err != nil {
				return err
			}
			if tb.Prefill == nil {
				return inputError(fmt.Errorf("prefill: %s has no prefill block", args[0]))
			}
			if stateDir == "" {
				stateDir = filepath.Join(rundir.TestbedDir(tb.Sweep.RunsDir, tb.Name), rundir.PrefillDir)
			}
			if err := os.MkdirAll(stateDir, 0o750); err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			p, err := cluster.NewPool(tb)
			if err != nil {
				return err
			}
			defer p.Close()
			res, err := agents.Prefill(ctx, tb, agents.PoolAgents{Pool: p}, agents.PrefillOptions{
				StateDir: stateDir, Progress: cmd.ErrOrStderr(), Every: every, NoVerify: noVerify})
			if werr := writePrefillResults(cmd, res, asJSON); werr != nil && err == nil {
				err = werr
			}
			if err != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), "benchbed: prefill:", tb.Mask(err.Error()))
				return exitCode(1)
			}
			return nil
		},
	}
	lf = addLoadFlags(cmd)
	lf.addConnectFlags(cmd)
	cmd.Flags().StringVar(&stateDir, "state-dir", "", "where the checkpoints are kept (default <runs_dir>/<testbed>/prefill)")
	cmd.Flags().BoolVar(&noVerify, "no-verify", false, "skip the listing check after the fill")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the results as JSON")
	cmd.Flags().DurationVar(&every, "progress", 2*time.Second, "how often to print progress")
	return cmd
}

func writePrefillResults(cmd *cobra.Command, res []agents.PrefillResult, asJSON bool) error {
	out := cmd.OutOrStdout()
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	for _, r := range res {
		if r.SameAs != "" {
			if _, err := fmt.Fprintf(out, "%s: the %d objects of %s (same layout, account, policy and check)\n", r.Workload, r.Objects, r.SameAs); err != nil {
				return err
			}
			continue
		}
		line := fmt.Sprintf("%s: %d objects in %.1fs: %d put, %d already there, %d retries, %d failed",
			r.Workload, r.Objects, r.Seconds, r.Fill.Put, r.Fill.Skipped, r.Fill.Retried, r.Fill.Failed)
		if r.Verify != nil {
			line += fmt.Sprintf("; listing check: %d found, %d put again (%d listing requests)",
				r.Verify.Skipped, r.Verify.Put, r.Verify.Requests)
		}
		if _, err := fmt.Fprintln(out, line); err != nil {
			return err
		}
	}
	return nil
}
