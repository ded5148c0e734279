package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"benchbed/internal/cluster"
	"benchbed/internal/sweep"
	"benchbed/results"
	"benchbed/results/metrics"

	"github.com/spf13/cobra"
)

func init() { register(newSweepCmd) }

// sweepCmdFlags are `benchbed sweep`'s options.
type sweepCmdFlags struct {
	resume        string
	only          []string
	breakLock     bool
	onFailure     string
	runsDir       string
	healthTimeout time.Duration
	metrics       metricsFlags
}

func newSweepCmd() *cobra.Command {
	var f sweepCmdFlags
	var lf *loadFlags
	cmd := &cobra.Command{
		Use:   "sweep FILE",
		Short: "Run the testbed's whole matrix over SSH and print the ssbench-style table",
		Long: "Checks and locks every host, records their environment, backs up every conf and ring it will\n" +
			"change, prefills once, then per cell switches ring ports, pushes the confs that changed,\n" +
			"restarts what changed, waits for health, warms up and runs the workload from the agents.\n" +
			"At the end the originals are restored and checked. A first interrupt stops the agents and\n" +
			"restores the lab; a second exits at once (then `benchbed restore RUN`).\n" +
			"A host's lock left by a benchbed of this machine that no longer runs is stale: it is taken\n" +
			"over and said; a live sweep's lock, or one of another machine, needs --break-lock.\n" +
			"Exit status: 0 every cell ok, 1 a cell or step failed, 130 interrupted.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runSweepCmd(cmd, args[0], lf, f) },
	}
	lf = addLoadFlags(cmd)
	lf.addConnectFlags(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.resume, "resume", "", "continue the run RUN (its directory, its id or \"latest\"), keeping its finished cells")
	fl.StringArrayVar(&f.only, "only", nil, "run only this variant (repeatable)")
	fl.BoolVar(&f.breakLock, "break-lock", false, "take the hosts' locks even if another live sweep, or one of another machine, holds them")
	fl.StringVar(&f.onFailure, "on-failure", "", "continue or stop after a failed cell (default: the testbed's)")
	fl.StringVar(&f.runsDir, "runs-dir", "", "root of the run directories (default: the testbed's sweep.runs_dir)")
	fl.DurationVar(&f.healthTimeout, "health-timeout", 0, "how long every server has to answer after a restart (default 2m)")
	f.metrics.add(fl)
	return cmd
}

func runSweepCmd(cmd *cobra.Command, file string, lf *loadFlags, f sweepCmdFlags) error {
	if f.onFailure != "" && f.onFailure != "continue" && f.onFailure != "stop" {
		return usagef(cmd, "--on-failure %q: want continue or stop", f.onFailure)
	}
	tb, err := lf.load(cmd, file)
	if err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	p, err := cluster.NewPool(tb)
	if err != nil {
		return err
	}
	defer p.Close()
	lm, err := startMetrics(context.Background(), f.metrics.withTestbed(tb.Metrics), metrics.State{Testbed: tb.Name})
	if err != nil {
		return err
	}
	defer lm.close(stderr)
	sw, err := sweep.NewSweeper(tb, p, sweep.Options{Log: stderr, RunsDir: f.runsDir, Resume: f.resume,
		Only: f.only, BreakLock: f.breakLock, OnFailure: f.onFailure, HealthTimeout: f.healthTimeout,
		Observer: lm.observer()})
	if err != nil {
		return err
	}
	lm.setRun(sw.Run().ID)
	fmt.Fprintln(stderr, "sweep: run directory", sw.Run().Dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	interrupted := watchInterrupts(stderr, cancel, sw)
	sum, err := sw.Sweep(ctx, context.Background())
	if terr := sw.Table(cmd.OutOrStdout()); terr != nil {
		return terr
	}
	fmt.Fprintln(stderr, resultsLine(sum, sw.Run().Dir))
	if line := sweepEstimateLine(tb, f.runsDir, sw.Run(), f.resume != ""); line != "" {
		fmt.Fprintln(stderr, "sweep:", sw.Mask(line))
	}
	code := 0
	switch {
	case interrupted():
		fmt.Fprintln(stderr, "benchbed: interrupted; partial results kept; resume with --resume", sw.Run().ID)
		code = exitInterrupted
	case err != nil:
		fmt.Fprintln(stderr, "benchbed:", sw.Mask(err.Error()))
		code = exitNo
	}
	if left := sw.Left(); len(left) > 0 {
		fmt.Fprintln(stderr, "benchbed: left undone:")
		for _, l := range left {
			fmt.Fprintln(stderr, "  -", l)
		}
	}
	if code != 0 {
		return exitCode(code)
	}
	return nil
}

// watchInterrupts cancels the sweep on the first SIGINT or SIGTERM; on the
// second it prints what is left to undo and exits at once.
func watchInterrupts(w io.Writer, cancel func(), sw *sweep.Sweeper) (interrupted func() bool) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	got := make(chan struct{})
	go func() {
		<-sigs
		close(got)
		fmt.Fprintln(w, "\nbenchbed: interrupt: stopping the agents and restoring the lab (interrupt again to exit at once)")
		cancel()
		<-sigs
		fmt.Fprintln(w, "\nbenchbed: second interrupt: exiting now. Left undone:")
		for _, l := range sw.Left() {
			fmt.Fprintln(w, "  -", l)
		}
		os.Exit(130)
	}()
	return func() bool {
		select {
		case <-got:
			return true
		default:
			return false
		}
	}
}

// resultsLine is the sweep's closing line about its run directory: where
// its results are, or, when no cell ran (a run-wide step failed first),
// that there are none and what the directory keeps instead.
func resultsLine(sum *results.Summary, dir string) string {
	if sum == nil || len(sum.Cells) == 0 {
		return "sweep: no cell ran; " + dir + " keeps the journal (and errors.log for a failed step)"
	}
	return "sweep: results in " + dir
}
