package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"benchbed/results/compare"
	"benchbed/results/rundir"
)

func init() { register(newCompareCmd) }

// compareFlags are `benchbed compare`'s options.
type compareFlags struct {
	json     bool
	format   string
	alpha    float64
	lastByte bool
	runsDir  string
}

func newCompareCmd() *cobra.Command {
	var f compareFlags
	cmd := &cobra.Command{
		Use:   "compare A B",
		Short: "Two runs or two cells: deltas, significance, configuration diff",
		Long: "A and B are runs (cells matched by variant and workload, repeats pooled): a run directory,\n" +
			"a run id under --runs-dir or \"latest\" (the newest run there); or cells RUN:CELL, CELL being\n" +
			"a cell id, its number (\"3\") or a variant only one cell has;\n" +
			"a variant with several repeats of one workload stands for those repeats, pooled.\n" +
			"A ref that is a run is one even with a ':' in it; otherwise it splits at the last ':'\n" +
			"whose left part is a run.\n" +
			"Per operation type: req/s, first-byte p50 and p99 (--last-byte: last-byte too), errors, deltas\n" +
			"and a Mann-Whitney U test (benchstat's; '~' = not significant) on the repeats' req/s when\n" +
			"each side has enough repeats, else on the per-second throughput (autocorrelated: said so).\n" +
			"With the hosts' telemetry on both sides: their run phase's CPU busy per host, the busiest\n" +
			"disk's utilisation and each service's CPU, B - A, and each side's bottleneck.\n" +
			"Then what differs in the cells' recorded confs and ring ports, and for two runs in their\n" +
			"testbed.hcl (secrets masked) and hosts' recorded environments.\n" +
			"Exit status: 0 the comparison was printed, 1 error.",
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error { return runCompare(cmd, args, f) },
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.json, "json", false, "print the comparison as JSON")
	fl.StringVar(&f.format, "format", "text", "text or markdown")
	fl.Float64Var(&f.alpha, "alpha", 0.05, "significance level of the U test")
	fl.BoolVar(&f.lastByte, "last-byte", false, "add last-byte latency rows")
	fl.StringVar(&f.runsDir, "runs-dir", rundir.DefaultRoot, "root of the run directories, to find a run by id or \"latest\"")
	return cmd
}

func runCompare(cmd *cobra.Command, args []string, f compareFlags) error {
	if f.alpha <= 0 || f.alpha >= 1 {
		return fmt.Errorf("--alpha %v: want a level between 0 and 1", f.alpha)
	}
	if !f.json && f.format != "text" && f.format != "markdown" {
		return fmt.Errorf("--format %q: want text or markdown", f.format)
	}
	a, err := compare.OpenSide(f.runsDir, args[0])
	if err != nil {
		return err
	}
	b, err := compare.OpenSide(f.runsDir, args[1])
	if err != nil {
		return err
	}
	c, err := compare.Compare(a, b, compare.CompareOptions{Alpha: f.alpha, LastByte: f.lastByte})
	if err != nil {
		return err
	}
	if f.json {
		enc := json.NewEncoder(cmd.OutOrStdout())
		enc.SetIndent("", "  ")
		return enc.Encode(c)
	}
	return compare.WriteComparison(cmd.OutOrStdout(), c, f.format)
}
