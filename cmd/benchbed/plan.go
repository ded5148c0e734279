package main

import (
	"benchbed/plan/schedule"
	"encoding/json"
	"io"

	"github.com/spf13/cobra"
)

func init() { register(newPlanCmd) }

func newPlanCmd() *cobra.Command {
	var lf *loadFlags
	var asJSON bool
	var runsDir string
	cmd := &cobra.Command{
		Use:   "plan FILE",
		Short: "Show what a sweep would do: hosts by role, rings, cells and their steps, a time estimate",
		Long: "Prints the testbed's hosts by role, rings, workloads, every cell's steps and the sweep's time estimate.\n" +
			"The estimate adds up each step at the time it took in the testbed's newest earlier runs (their\n" +
			"journals under --runs-dir), or without one at measured defaults, and says which it used.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			tb, err := lf.load(cmd, args[0])
			if err != nil {
				return err
			}
			p := schedule.New(tb)
			p.Reestimate(planCosts(tb, runsDir, ""))
			if !asJSON {
				return p.WriteText(cmd.OutOrStdout())
			}
			b, err := json.MarshalIndent(p.JSON(), "", "  ")
			if err != nil {
				return err
			}
			_, err = io.WriteString(cmd.OutOrStdout(), tb.Mask(string(b))+"\n")
			return err
		},
	}
	lf = addLoadFlags(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the plan as JSON")
	cmd.Flags().StringVar(&runsDir, "runs-dir", "", "where the testbed's earlier runs are, whose journaled step times the estimate uses (default: the testbed's sweep.runs_dir)")
	return cmd
}
