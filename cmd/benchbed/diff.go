package main

import (
	"fmt"
	"strings"

	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/templates"

	"github.com/spf13/cobra"
)

func init() { register(newDiffCmd) }

func newDiffCmd() *cobra.Command {
	var (
		lf      *loadFlags
		unified bool
	)
	cmd := &cobra.Command{
		Use:   "diff FILE A B",
		Short: "What changes on the hosts between variants A and B: per host, file, section, key; ring ports",
		Long: "Prints, per file and group of hosts with the same changes, \"key: old -> new\" with the\n" +
			"source of each value, then the ring port changes. Sensitive values are masked.\n" +
			"Exit status: 0 same, 1 different, 2 error (like diff).",
		Args: cobra.ExactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			tb, err := lf.load(cmd, args[0])
			if err != nil {
				return err
			}
			a, errA := renderVariant(tb, args[1], nil)
			b, errB := renderVariant(tb, args[2], nil)
			for _, err := range []error{errA, errB} {
				if err != nil {
					fmt.Fprintln(cmd.ErrOrStderr(), "benchbed:", maskedMessage(tb, err))
				}
			}
			if errA != nil || errB != nil {
				return exitCode(exitCannot)
			}
			fmt.Fprintln(cmd.ErrOrStderr(), "benchbed: files read:", strings.Join(tb.Sources, ", "))
			printWarnings(cmd, tb, newWarnings(a.Warnings, b.Warnings), args[2]+": ")
			if note := workloadsNote(tb, a.Variant, b.Variant); note != "" {
				fmt.Fprintln(cmd.ErrOrStderr(), "benchbed: note:", note)
			}
			d := render.DiffRenderings(a, b)
			runs := render.GenericRunDiff(tb, a.Variant, b.Variant)
			m := tb.Secrets()
			if unified {
				err = render.WriteUnified(cmd.OutOrStdout(), a, b, m)
			} else if !d.Empty() {
				err = d.WriteText(cmd.OutOrStdout(), m)
			}
			for _, l := range runs {
				if err == nil {
					_, err = fmt.Fprintln(cmd.OutOrStdout(), m.Mask(l))
				}
			}
			switch {
			case err != nil:
				fmt.Fprintln(cmd.ErrOrStderr(), "benchbed:", err)
				return exitCode(exitCannot)
			case d.Empty() && len(runs) == 0:
				return nil
			}
			return exitCode(exitNo)
		},
	}
	lf = addLoadFlags(cmd)
	cmd.Flags().BoolVarP(&unified, "unified", "u", false, "print a unified text diff of the files and ring layouts")
	return cmd
}

// newWarnings returns the warnings of b that a does not have: what the
// change of variant brings.
func newWarnings(a, b []templates.Warning) []templates.Warning {
	seen := map[string]bool{}
	for _, w := range a {
		seen[w.String()] = true
	}
	var out []templates.Warning
	for _, w := range b {
		if !seen[w.String()] {
			out = append(out, w)
		}
	}
	return out
}

// workloadsNote says which workloads run on one of variants a and b only
// (their variants attributes): the sweep measures them there alone, so
// compare finds no pair of theirs across the two. "" when both run the
// same workloads.
func workloadsNote(tb *plan.Testbed, a, b *plan.Variant) string {
	var onlyA, onlyB []string
	for _, w := range tb.Workloads {
		switch inA, inB := w.RunsOn(a), w.RunsOn(b); {
		case inA && !inB:
			onlyA = append(onlyA, fmt.Sprintf("%q", w.Name))
		case inB && !inA:
			onlyB = append(onlyB, fmt.Sprintf("%q", w.Name))
		}
	}
	var parts []string
	for _, side := range []struct {
		names []string
		v     *plan.Variant
	}{{onlyA, a}, {onlyB, b}} {
		if len(side.names) > 0 {
			parts = append(parts, fmt.Sprintf("workloads only on %q (their variants): %s", side.v.Name, strings.Join(side.names, ", ")))
		}
	}
	return strings.Join(parts, "; ")
}
