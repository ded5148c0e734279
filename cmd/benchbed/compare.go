package main

import (
	"encoding/json"
	"io"

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
	failIf   []string // --fail-if thresholds: "req/s < -5%"
	testbed  string   // a testbed whose threshold blocks gate too
	margin   float64  // the verdict's equivalence margin, percent
	wide     bool     // verdict lines uncut
}

func newCompareCmd() *cobra.Command {
	var f compareFlags
	var lf *loadFlags
	cmd := &cobra.Command{
		Use:   "compare BASE B [C...]",
		Short: "Runs or cells against a baseline: deltas, significance, configuration diff, regression gates",
		Long: "First the verdict: per pair, B's req/s and first/last-byte p99 change against BASE with a 95%\n" +
			"interval (the repeats' Welch t, else batch means of one run a side: weaker evidence) and a word:\n" +
			"better, worse, no difference (within ±--margin %), or not decided and why.\n" +
			"BASE, B... are runs (cells matched by variant and workload, repeats pooled): a run directory,\n" +
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
			"With more than one run or cell after BASE: one table, BASE's figures and each other's with\n" +
			"its change (compare BASE X for one's details).\n" +
			"--fail-if 'req/s < -5%' (repeatable; metrics req/s, first_byte_p50/p99, last_byte_p50/p99)\n" +
			"and the threshold blocks of --testbed's workloads gate each pair's total: a gate fails only\n" +
			"where the change is beyond it AND its verdict's 95% interval excludes 0 (capacity: the U test);\n" +
			"each gate is printed with the test that decided it, UNDECIDED when there is no interval.\n" +
			"Exit status: 0 compared, no gate failed; 1 a gate failed; 2 error.",
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error { return inputError(runCompare(cmd, args, f, lf)) },
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.json, "json", false, "print the comparison as JSON")
	fl.StringVar(&f.format, "format", "text", "text or markdown")
	fl.Float64Var(&f.alpha, "alpha", 0.05, "significance level of the U test")
	fl.BoolVar(&f.lastByte, "last-byte", false, "add last-byte latency rows")
	fl.StringVar(&f.runsDir, "runs-dir", rundir.DefaultRoot, "root of the run directories, to find a run by id or \"latest\"")
	fl.StringArrayVar(&f.failIf, "fail-if", nil, "a regression gate: exit 1 when this change is significant, as 'req/s < -5%' or 'first_byte_p99 > +10%' (repeatable)")
	fl.StringVar(&f.testbed, "testbed", "", "a testbed file whose workloads' threshold blocks gate their pairs too")
	fl.Float64Var(&f.margin, "margin", 2, "the verdict's equivalence margin in percent: a change whose 95% interval is within ±margin is \"no difference\"")
	fl.BoolVar(&f.wide, "wide", false, "do not cut the verdict lines at 120 columns")
	lf = addLoadFlags(cmd)
	return cmd
}

func runCompare(cmd *cobra.Command, args []string, f compareFlags, lf *loadFlags) error {
	if f.alpha <= 0 || f.alpha >= 1 {
		return usagef(cmd, "--alpha %v: want a level between 0 and 1", f.alpha)
	}
	if f.margin <= 0 || f.margin >= 100 {
		return usagef(cmd, "--margin %v: want a percentage above 0 and below 100", f.margin)
	}
	if !f.json && f.format != "text" && f.format != "markdown" {
		return usagef(cmd, "--format %q: want text or markdown", f.format)
	}
	gates, err := compareGates(cmd, f, lf)
	if err != nil {
		return err
	}
	cs, err := compareAll(args, f, gates.lastByte())
	if err != nil {
		return err
	}
	for _, c := range cs {
		c.Gates = compare.Gate(c, gates.of)
	}
	if err := printComparisons(cmd.OutOrStdout(), cs, f); err != nil {
		return err
	}
	for _, c := range cs {
		if compare.Failed(c.Gates) {
			return &exitError{code: exitNo, msg: "a regression gate failed (FAIL above)"}
		}
	}
	return nil
}

// compareAll compares the baseline args[0] with each other ref.
func compareAll(args []string, f compareFlags, lastByte bool) ([]*compare.Comparison, error) {
	base, err := compare.OpenSide(f.runsDir, args[0])
	if err != nil {
		return nil, err
	}
	var cs []*compare.Comparison
	for _, ref := range args[1:] {
		b, err := compare.OpenSide(f.runsDir, ref)
		if err != nil {
			return nil, err
		}
		c, err := compare.Compare(base, b, compare.CompareOptions{Alpha: f.alpha, LastByte: f.lastByte || lastByte, Margin: f.margin / 100})
		if err != nil {
			return nil, err
		}
		if f.wide {
			c.Width = 1 << 20
		}
		cs = append(cs, c)
	}
	return cs, nil
}

// printComparisons prints one comparison as before, several as one
// table; then the gates' verdicts. JSON: the comparison, or for several
// {"baseline": ..., "comparisons": [...]}.
func printComparisons(w io.Writer, cs []*compare.Comparison, f compareFlags) error {
	if f.json {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if len(cs) == 1 {
			return enc.Encode(cs[0])
		}
		return enc.Encode(struct {
			Baseline    string                `json:"baseline"`
			Comparisons []*compare.Comparison `json:"comparisons"`
		}{cs[0].A, cs})
	}
	var err error
	if len(cs) == 1 {
		err = compare.WriteComparison(w, cs[0], f.format)
	} else {
		err = compare.WriteNWay(w, cs, f.format)
	}
	for _, c := range cs {
		if err == nil {
			err = compare.WriteVerdicts(w, c.Gates)
		}
	}
	return err
}
