package compare

import (
	"fmt"
	"path/filepath"
	"strings"

	"benchbed/results"
	"benchbed/results/rundir"
)

// Comparison is the outcome of `benchbed compare A B`.
type Comparison struct {
	A     string  `json:"a"` // the sides' labels
	B     string  `json:"b"`
	Mode  string  `json:"mode"` // "runs" or "cells"
	Alpha float64 `json:"alpha"`
	Pairs []Pair  `json:"pairs"`
	// OnlyA and OnlyB are the (variant, workload) groups of two runs found
	// on one side only: "variant / workload (n cells)".
	OnlyA []string `json:"only_a,omitempty"`
	OnlyB []string `json:"only_b,omitempty"`
	// Testbed holds the changed lines of the runs' testbed.hcl ("- ...",
	// "+ ..."), values of sensitive variables and keys masked; empty when
	// they are the same or both runs are one.
	Testbed []string `json:"testbed_diff,omitempty"`
	// Environment holds what changed in the hosts' recorded environments
	// (env/<host>.txt) between two runs.
	Environment []string `json:"environment_diff,omitempty"`
	Warnings    []string `json:"warnings,omitempty"`
	// Width is the columns the text's verdict lines keep within (0:
	// DefaultWidth).
	Width int `json:"-"`
	// Gates are the regression gates' verdicts on the pairs (Gate),
	// filled by the caller; absent without gates.
	Gates []Verdict `json:"gates,omitempty"`
}

// CompareOptions tunes Compare.
type CompareOptions struct {
	// Alpha is the significance level; 0 means 0.05 (benchstat's).
	Alpha float64
	// LastByte adds last-byte latency rows.
	LastByte bool
	// Margin is the verdict's equivalence margin, a share; 0 means
	// results.DefaultMargin (2 %).
	Margin float64
}

// Compare compares two runs (cells matched by variant and workload,
// repeats pooled) or two cells (or variants' repeats, pooled). A run
// against a cell is an error.
func Compare(a, b *Side, o CompareOptions) (*Comparison, error) {
	if (a.Cells == nil) != (b.Cells == nil) {
		return nil, fmt.Errorf("compare two runs or two cells, not a run (%s) and a cell (%s)", runOf(a, b), cellOf(a, b))
	}
	if o.Alpha <= 0 || o.Alpha >= 1 {
		o.Alpha = 0.05
	}
	cmp := &Comparison{A: a.Label(), B: b.Label(), Mode: "runs", Alpha: o.Alpha}
	if a.Label() == b.Label() {
		cmp.Warnings = append(cmp.Warnings, "comparing "+a.Label()+" with itself: every change is 0 by construction")
	}
	if filepath.Clean(a.Run.Dir) != filepath.Clean(b.Run.Dir) {
		lines, err := testbedDiff(a.Run.Dir, b.Run.Dir)
		if err != nil {
			cmp.Warnings = append(cmp.Warnings, err.Error())
		}
		cmp.Testbed = lines
		cmp.Environment = envDiff(a.Run.Dir, b.Run.Dir)
	}
	if a.Cells != nil {
		cmp.Mode = "cells"
		cmp.Pairs = append(cmp.Pairs, comparePair(a.group(), b.group(), o))
		return cmp, nil
	}
	return cmp, compareRuns(cmp, a.Run, b.Run, o)
}

// group returns the side's cells as a group.
func (s *Side) group() *group {
	c := s.Cells[0]
	return &group{run: s.Run, variant: c.Variant, workload: c.Workload, cells: s.Cells}
}

func runOf(a, b *Side) string {
	if a.Cells == nil {
		return a.Ref
	}
	return b.Ref
}

func cellOf(a, b *Side) string {
	if a.Cells != nil {
		return a.Ref
	}
	return b.Ref
}

// compareRuns matches the groups of two runs.
func compareRuns(cmp *Comparison, a, b *rundir.RunResults, o CompareOptions) error {
	ga, gb := runGroups(a), runGroups(b)
	for _, g := range ga {
		if m := findGroup(gb, g.variant, g.workload); m != nil {
			cmp.Pairs = append(cmp.Pairs, comparePair(g, m, o))
		} else {
			cmp.OnlyA = append(cmp.OnlyA, g.String())
		}
	}
	for _, g := range gb {
		if findGroup(ga, g.variant, g.workload) == nil {
			cmp.OnlyB = append(cmp.OnlyB, g.String())
		}
	}
	if len(cmp.Pairs) == 0 {
		return fmt.Errorf("runs %s and %s have no (variant, workload) in common (only in A: %s; only in B: %s)",
			a.Dir, b.Dir, strings.Join(cmp.OnlyA, ", "), strings.Join(cmp.OnlyB, ", "))
	}
	return nil
}

// group is the cells of one (variant, workload) of a run: its repeats.
type group struct {
	run               *rundir.RunResults
	variant, workload string
	cells             []*results.Cell
}

func (g *group) String() string {
	n := fmt.Sprintf("%d cells", len(g.cells))
	if len(g.cells) == 1 {
		n = "1 cell"
	}
	return fmt.Sprintf("%s / %s (%s)", g.variant, g.workload, n)
}

// runGroups returns a run's cells by (variant, workload), in the order of
// their first cell.
func runGroups(r *rundir.RunResults) []*group {
	var out []*group
	for _, idx := range results.Groups(r.Summary.Cells) {
		c := &r.Summary.Cells[idx[0]]
		g := &group{run: r, variant: c.Variant, workload: c.Workload}
		for _, i := range idx {
			g.cells = append(g.cells, &r.Summary.Cells[i])
		}
		out = append(out, g)
	}
	return out
}

func findGroup(gs []*group, variant, workload string) *group {
	for _, g := range gs {
		if g.variant == variant && g.workload == workload {
			return g
		}
	}
	return nil
}
