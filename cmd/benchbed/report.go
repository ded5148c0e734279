package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"benchbed/results/report"
	"benchbed/results/rundir"
)

func init() { register(newReportCmd) }

// reportCmdFlags are `benchbed report`'s options.
type reportCmdFlags struct {
	format   string
	out      string
	runsDir  string
	baseline string // the verdict's baseline variant ("": the first)
	wide     bool   // the text's lines whole (the verdict's, the tables')
	verdict  bool   // print only the caveats and the verdict
}

func newReportCmd() *cobra.Command {
	var f reportCmdFlags
	var lf *loadFlags
	cmd := &cobra.Command{
		Use:   "report RUN | report FILE [ID|latest]",
		Short: "Tables (text, markdown, csv, json), plots and an HTML page of a sweep's run",
		Long: "RUN is a sweep's run directory. Or give the testbed FILE and a run id, or \"latest\" (the\n" +
			"default): the run is looked for under the testbed's sweep.runs_dir (or --runs-dir).\n" +
			"First the run's caveats (page cache, retired options, failed cells, one run a variant, runs too\n" +
			"short), then the verdict: each variant against the baseline (the first variant, or --baseline),\n" +
			"its req/s and first/last-byte p99 change with a 95% interval and a word, and what it changes.\n" +
			"Prints the ssbench-style table, the per-operation table, the errors, the repeats' mean and spread and\n" +
			"the failed cells in --format (text, markdown, csv: one row per cell and operation in seconds,\n" +
			"json: the summary plus the repeats' aggregates). --out DIR also writes report.html (one\n" +
			"self-contained page), the plots as SVG and PNG, and report.{txt,md,csv,json}, and prints only\n" +
			"where they are.\n" +
			"A partial run (killed before its " + rundir.SummaryFile + ") is reported with a notice.\n" +
			"Exit status: 0 reported, 1 a finished cell's agents' streams are missing or broken (the rest\n" +
			"is still written), 2 no such run, or its summary unreadable.",
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error { return runReportCmd(cmd, args, lf, f) },
	}
	lf = addLoadFlags(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.format, "format", report.FormatText, "text, markdown, csv or json (on stdout)")
	fl.StringVar(&f.out, "out", "", "write report.html, the plots and every format into this directory")
	fl.StringVar(&f.runsDir, "runs-dir", "", "root of the run directories, with FILE (default: the testbed's sweep.runs_dir)")
	fl.StringVar(&f.baseline, "baseline", "", "the variant the verdict compares the others with (default: the first)")
	fl.BoolVar(&f.verdict, "verdict", false, "print only the run's caveats and the verdict (with --out: after writing the files)")
	fl.BoolVar(&f.wide, "wide", false, "keep the text's lines whole: the verdict's uncut, the tables neither wrapped nor split at 120 columns")
	return cmd
}

func runReportCmd(cmd *cobra.Command, args []string, lf *loadFlags, f reportCmdFlags) error {
	switch f.format {
	case report.FormatText, report.FormatMarkdown, report.FormatCSV, report.FormatJSON:
	default:
		return usagef(cmd, "--format %q: want text, markdown, csv or json", f.format)
	}
	dir, err := reportRunDir(cmd, args, lf, f.runsDir)
	if err != nil {
		return inputError(err)
	}
	r, err := report.Load(dir)
	if err != nil {
		return inputError(err)
	}
	if f.baseline != "" {
		if err := r.Rebase(f.baseline); err != nil {
			return err
		}
	}
	if f.wide {
		r.Width = 1 << 20
	}
	stderr := cmd.ErrOrStderr()
	if f.out != "" {
		files, err := r.WriteDir(f.out)
		if err != nil {
			return err
		}
		fmt.Fprintf(cmd.OutOrStdout(), "report: wrote %d files in %s (open %s)\n", len(files), f.out, filepath.Join(f.out, "report.html"))
	}
	if err := writeReport(cmd.OutOrStdout(), r, f); err != nil {
		return err
	}
	for _, n := range r.Notices {
		fmt.Fprintln(stderr, "report: notice:", n)
	}
	for _, p := range r.Problems {
		fmt.Fprintln(stderr, "report:", p)
	}
	if len(r.Problems) > 0 {
		return exitCode(exitNo)
	}
	return nil
}

// writeReport prints what f asks for on stdout: the verdict alone
// (--verdict), nothing more after --out's files, or the whole report in
// --format.
func writeReport(w io.Writer, r *report.Report, f reportCmdFlags) error {
	switch {
	case f.verdict:
		return r.WriteVerdictText(w)
	case f.out != "":
		return nil
	}
	return r.WriteFormat(w, f.format)
}

// reportRunDir resolves the command's arguments to a run directory: a
// directory as it is; a testbed file with an id or "latest" (the default)
// under the testbed's runs directory.
func reportRunDir(cmd *cobra.Command, args []string, lf *loadFlags, runsDir string) (string, error) {
	st, err := os.Stat(args[0])
	if err != nil {
		return "", fmt.Errorf("run %s: %w", args[0], err)
	}
	if st.IsDir() {
		if len(args) > 1 {
			return "", usagef(cmd, "%s is a run directory: no run id after it", args[0])
		}
		return args[0], nil
	}
	tb, err := lf.load(cmd, args[0])
	if err != nil {
		return "", err
	}
	if runsDir == "" {
		runsDir = tb.Sweep.RunsDir
	}
	ref := rundir.Latest
	if len(args) > 1 {
		ref = args[1]
	}
	run, err := rundir.Resolve(runsDir, tb.Name, ref)
	if err != nil {
		return "", err
	}
	return run.Dir, nil
}
