package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"benchbed/orchestrate"
	"benchbed/results"

	"github.com/spf13/cobra"
)

func init() { register(newRestoreCmd) }

func newRestoreCmd() *cobra.Command {
	var lf *loadFlags
	var runsDir string
	cmd := &cobra.Command{
		Use:   "restore RUN",
		Short: "Put back the confs and rings a sweep changed, restart the servers, release its locks",
		Long: "RUN is a sweep's run directory (or its id under --runs-dir). The testbed is the file the\n" +
			"sweep used (its sweep.json); pass the same --var values. Each original comes back from the\n" +
			"copy the sweep left on its host and is checked against the checksum recorded in the run.\n" +
			"Refused, with nothing changed, while the run's sweep still runs on this machine or while\n" +
			"another live sweep holds a host's lock (a stale one, whose benchbed of this machine is gone,\n" +
			"is taken over and said). A host still unreachable keeps its copies and its lock:\n" +
			"run the restore again once it is back. Exit status: 0 restored, 1 not (all) restored, 2 the testbed does not load.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runRestoreCmd(cmd, args[0], runsDir, lf) },
	}
	lf = addLoadFlags(cmd)
	lf.addConnectFlags(cmd)
	cmd.Flags().StringVar(&runsDir, "runs-dir", "runs", "root of the run directories, to find RUN by id")
	return cmd
}

func runRestoreCmd(cmd *cobra.Command, ref, runsDir string, lf *loadFlags) error {
	dir, err := findRunDir(ref, runsDir)
	if err != nil {
		return err
	}
	info, err := orchestrate.ReadSweepInfo(dir)
	if err != nil {
		return err
	}
	tb, ok := lf.load(cmd, info.Testbed)
	if !ok {
		return exitCode(2)
	}
	run, err := results.OpenRun("", tb.Name, dir)
	if err != nil {
		return err
	}
	p, err := orchestrate.NewPool(tb)
	if err != nil {
		return err
	}
	defer p.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := orchestrate.RestoreRun(ctx, tb, p, run, cmd.ErrOrStderr()); err != nil {
		return fmt.Errorf("restore of %s: %s", dir, tb.Mask(err.Error()))
	}
	fmt.Fprintln(cmd.OutOrStdout(), "restored:", dir)
	return nil
}

// findRunDir accepts a run directory, or a run id under runsDir/<testbed>/.
func findRunDir(ref, runsDir string) (string, error) {
	if st, err := os.Stat(ref); err == nil && st.IsDir() {
		return filepath.Abs(ref)
	}
	m, _ := filepath.Glob(filepath.Join(runsDir, "*", filepath.Base(ref)))
	if len(m) != 1 {
		return "", fmt.Errorf("run %s: no such run directory (nor one id under %s)", ref, runsDir)
	}
	return m[0], nil
}
