package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"benchbed/load"
	"benchbed/plan/slo"
	"benchbed/results"
	"benchbed/results/metrics"
)

// searchFlags are `benchbed load --search`'s options.
type searchFlags struct {
	slo        string        // "first_byte_p99<50ms,errors<0.1%"
	from, to   float64       // the range of open-loop rates searched
	probe      time.Duration // each probe's measured length
	resolution float64       // hi/lo - 1 at which the bisection stops
}

// runSearch searches for the highest rate meeting the SLO, every probe a
// run of cfg at its rate (after the warm-up the flags ask), and prints
// the capacity with the probes.
func runSearch(ctx context.Context, stdout, stderr io.Writer, name string, cfg load.Config, f loadCmdFlags, stream phaseFunc) error {
	slo, err := slo.Parse(f.search.slo)
	if err != nil {
		return usagef(nil, "--search: %w", err)
	}
	if f.search.resolution <= 0 {
		return usagef(nil, "--resolution %s: want a share above 0, as 5%%", results.Percent(f.search.resolution))
	}
	if f.rate > 0 || f.fill.Objects > 0 || f.operations > 0 {
		return usagef(nil, "--search sets the rate and each probe's length: give no --rate, --operations or --fill-objects")
	}
	if f.auto.duration.set() {
		return usagef(nil, "--duration with --search: each probe lasts --probe (%s)", f.search.probe)
	}
	s := &results.Search{SLO: slo, From: f.search.from, To: f.search.to, Resolution: f.search.resolution,
		Probe: loadProbe(name, cfg, f, stream), OnProbe: func(p results.ProbeRecord) { fmt.Fprintln(stderr, "benchbed: "+probeLine(p)) }}
	res, err := s.Run(ctx)
	if err != nil {
		return interrupted(ctx, err)
	}
	if err := printSearch(stdout, res, f.json); err != nil {
		return err
	}
	if res.Capacity == 0 {
		return fmt.Errorf("%s: %s", res.Outcome, res.Why)
	}
	return nil
}

// scriptProbe, when set (a test's seam), is handed each probe's measured
// outcome and returns the one the search judges, so that a model of the
// server, not this machine's speed, decides the answer; nil (always,
// outside tests): as measured.
var scriptProbe func(rate float64, measured results.ProbeOutcome) results.ProbeOutcome

// loadProbe returns the search's probe: a run of cfg at the rate for
// the probe length, the process's own CPU over it as the client's.
func loadProbe(name string, cfg load.Config, f loadCmdFlags, stream phaseFunc) results.Probe {
	return func(ctx context.Context, rate float64) (results.ProbeOutcome, error) {
		c := cfg
		c.Rate, c.Duration, c.Operations = rate, f.search.probe, 0
		w := c
		if f.auto.warmup.set() {
			w = stream(c, metrics.PhaseWarmup)
		}
		if err := warmUp(ctx, io.Discard, w, f.auto); err != nil {
			return results.ProbeOutcome{}, err
		}
		cpu0, t0 := load.ProcessCPU(), time.Now()
		res, err := load.Run(ctx, stream(c, metrics.PhaseProbe))
		if err != nil {
			return results.ProbeOutcome{}, err
		}
		share := load.CPUShare(load.ProcessCPU()-cpu0, time.Since(t0))
		cell := res.Cell(name)
		o := results.ProbeOutcome{Total: cell.Total, DurationS: cell.DurationS, ClientCPU: &share}
		if scriptProbe != nil {
			o = scriptProbe(rate, o)
		}
		return o, nil
	}
}

// probeLine says one probe's figures and verdict on one line.
func probeLine(p results.ProbeRecord) string {
	verdict := "pass"
	if !p.Pass {
		verdict = "fail"
	}
	return fmt.Sprintf("%s probe at %.4g req/s: achieved %.4g, %s: %s", p.Role, p.Offered, p.Achieved, p.Why, verdict)
}

// printSearch prints the capacity and the probes behind it, or as JSON a
// {"search": ...} object.
func printSearch(w io.Writer, res *results.SearchResult, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Search *results.SearchResult `json:"search"`
		}{res})
	}
	var b strings.Builder
	if res.Capacity > 0 {
		fmt.Fprintf(&b, "capacity at %s: %.4g req/s (%s: %s)\n\n", res.SLO, res.Capacity, res.Outcome, res.Why)
	} else {
		fmt.Fprintf(&b, "%s (%s): %s\n\n", res.Outcome, res.SLO, res.Why)
	}
	tw := tabwriter.NewWriter(&b, 2, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "probe\toffered req/s\tachieved req/s\tfirst-byte p50\tp99\terrors\tclient CPU\t\t")
	for _, p := range res.Probes {
		cpu := "-"
		if p.ClientCPU != nil {
			cpu = results.Percent(*p.ClientCPU)
		}
		verdict := "pass"
		if !p.Pass {
			verdict = "fail: " + p.Why
		}
		fmt.Fprintf(tw, "%s\t%.4g\t%.4g\t%s\t%s\t%s\t%s\t\t%s\n", p.Role, p.Offered, p.Achieved, ms(p.FirstByte.P50),
			ms(p.FirstByte.P99), results.Percent(p.ErrorRate), cpu, verdict)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ms writes seconds as milliseconds: "12.3ms".
func ms(s float64) string { return fmt.Sprintf("%.1fms", s*1000) }
