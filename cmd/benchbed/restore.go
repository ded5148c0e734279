package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"benchbed/internal/cluster"
	"benchbed/internal/custody"
	"benchbed/results/rundir"

	"github.com/spf13/cobra"
)

func init() { register(newRestoreCmd) }

func newRestoreCmd() *cobra.Command {
	var lf *loadFlags
	var runsDir string
	cmd := &cobra.Command{
		Use:   "restore RUN",
		Short: "Put back the confs and rings a sweep changed, restart the servers, release its locks",
		Long: "RUN is a sweep's run directory, its id under --runs-dir, or \"latest\" (the newest run there).\n" +
			"The testbed is the file the sweep used (its " + rundir.SweepFile + "); pass the same --var values. Each\n" +
			"original comes back from the copy the sweep left on its host and is checked against the\n" +
			"checksum recorded in the run.\n" +
			"Refused, with nothing changed, while the run's sweep still runs on this machine or while\n" +
			"another live sweep holds a host's lock (a stale one, whose benchbed of this machine is gone,\n" +
			"is taken over and said). A host still unreachable keeps its copies and its lock:\n" +
			"run the restore again once it is back. Exit status: 0 restored, 1 not (all) restored, 2 no such run or the testbed does not load.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runRestoreCmd(cmd, args[0], runsDir, lf) },
	}
	lf = addLoadFlags(cmd)
	lf.addConnectFlags(cmd)
	cmd.Flags().StringVar(&runsDir, "runs-dir", rundir.DefaultRoot, "root of the run directories, to find RUN by id or \"latest\"")
	return cmd
}

func runRestoreCmd(cmd *cobra.Command, ref, runsDir string, lf *loadFlags) error {
	found, err := rundir.Resolve(runsDir, "", ref)
	if err != nil {
		return inputError(err)
	}
	dir, err := filepath.Abs(found.Dir)
	if err != nil {
		return inputError(err)
	}
	info, err := rundir.ReadSweepInfo(dir)
	if err != nil {
		return inputError(err)
	}
	tb, err := lf.load(cmd, info.Testbed)
	if err != nil {
		return err
	}
	run, err := rundir.Open(dir, tb.Name)
	if err != nil {
		return inputError(err)
	}
	p, err := cluster.NewPool(tb)
	if err != nil {
		return err
	}
	defer p.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := custody.Restore(ctx, tb, p, run, custody.RestoreOptions{Log: cmd.ErrOrStderr()}); err != nil {
		return fmt.Errorf("restore of %s: %s", dir, tb.Mask(err.Error()))
	}
	fmt.Fprintln(cmd.OutOrStdout(), "restored:", dir)
	return nil
}
