package main

import (
	"benchbed/plan"
	"benchbed/plan/scenario"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"benchbed/load/prefill"
	"benchbed/results"
)

// loadInitial is `benchbed load`'s unmeasured first phase, as ssbench's:
// the scenario's initial files put where the listing check does not find
// them (mode "upload"), or only counted, refusing to go on when any is
// missing ("check"); "skip" assumes them. Progress goes to w.
func loadInitial(ctx context.Context, w io.Writer, s *scenario.Scenario, st prefill.Store, users int, mode string) error {
	if mode == "skip" {
		return nil
	}
	l, err := prefill.NewLayout(s)
	if err != nil {
		return err
	}
	start := time.Now()
	what := "initial files"
	progress := func(t prefill.Totals) {
		fmt.Fprintf(w, "%s: %d of %d in place (%d put, %d found by listing)\n", what,
			t.Put+t.Skipped, l.Total(), t.Put, t.Skipped)
	}
	if mode == "check" {
		progress = nil
	}
	tot, err := prefill.Initial(ctx, s, st, prefill.Options{Concurrency: max(users, 1), CheckOnly: mode == "check"}, progress)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if mode == "check" {
		if tot.Missing > 0 {
			return fmt.Errorf("%w; run without --initial check to put them", &prefill.MissingError{Workload: s.Name, Expected: l.Total(), Totals: tot})
		}
		fmt.Fprintf(w, "%s: all %d in place (%d listing requests)\n", what, l.Total(), tot.Requests)
		return nil
	}
	fmt.Fprintf(w, "%s: %d put, %d already in place, %.1f s (not measured)\n", what, tot.Put, tot.Skipped, time.Since(start).Seconds())
	return nil
}

// interrupted turns an error after an interrupt into exit status 130.
func interrupted(ctx context.Context, err error) error {
	if ctx.Err() != nil && (err == nil || errors.Is(err, context.Canceled)) {
		return exitCode(130)
	}
	return err
}

// rateFlag is a share of operations: "0.01" or "1%", from 0 to 1.
type rateFlag float64

// String renders the share as a percentage.
func (r *rateFlag) String() string { return results.Percent(float64(*r)) }

// Set parses a share or a percentage.
func (r *rateFlag) Set(v string) error {
	x, err := plan.ParseRate(v)
	if err != nil {
		return err
	}
	*r = rateFlag(x)
	return nil
}

// Type names the flag's value in the help.
func (r *rateFlag) Type() string { return "rate" }
