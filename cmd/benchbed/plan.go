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
	cmd := &cobra.Command{
		Use:   "plan FILE",
		Short: "Show what a sweep would do: hosts by role, rings, cells and their steps, a time estimate",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			tb, ok := lf.load(cmd, args[0])
			if !ok {
				return exitCode(1)
			}
			p := schedule.NewPlan(tb)
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
	return cmd
}
