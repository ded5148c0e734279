package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"benchbed/plan/slo"
	"benchbed/results/compare"
)

// gateSet holds compare's regression gates: the --fail-if ones for every
// pair, and a testbed's threshold blocks by workload.
type gateSet struct {
	all        []slo.Threshold
	byWorkload map[string][]slo.Threshold
}

// compareGates reads --fail-if and --testbed's threshold blocks.
func compareGates(cmd *cobra.Command, f compareFlags, lf *loadFlags) (*gateSet, error) {
	g := &gateSet{byWorkload: map[string][]slo.Threshold{}}
	for _, s := range f.failIf {
		t, err := slo.ParseThreshold(s)
		if err != nil {
			return nil, usagef(cmd, "--fail-if: %v", err)
		}
		g.all = append(g.all, t)
	}
	if f.testbed == "" {
		return g, nil
	}
	tb, err := lf.load(cmd, f.testbed)
	if err == errInvalidTestbed {
		return nil, fmt.Errorf("--testbed %s: not valid (diagnostics above)", f.testbed)
	} else if err != nil {
		return nil, err
	}
	for _, w := range tb.Workloads {
		for _, t := range w.Thresholds {
			g.byWorkload[w.Name] = append(g.byWorkload[w.Name], t.Threshold)
		}
	}
	return g, nil
}

// of returns the gates of a pair: --fail-if's, then its workload's.
func (g *gateSet) of(p *compare.Pair) []slo.Threshold {
	return append(append([]slo.Threshold(nil), g.all...), g.byWorkload[p.Workload]...)
}

// lastByte reports whether a gate needs the last-byte rows.
func (g *gateSet) lastByte() bool {
	if compare.NeedsLastByte(g.all) {
		return true
	}
	for _, ts := range g.byWorkload {
		if compare.NeedsLastByte(ts) {
			return true
		}
	}
	return false
}
