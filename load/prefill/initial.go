package prefill

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"benchbed/plan/scenario"
)

// Initial is what a single client does before it measures, as ssbench
// does: the scenario's initial files put where missing (by the listing
// check, then concurrent PUTs), or with opts.CheckOnly only counted.
// progress, when not nil, receives the running totals every second and
// once at the end. Nothing is checkpointed: the listing check is what makes
// a second run start at once.
func Initial(ctx context.Context, s *scenario.Scenario, st Store, opts Options, progress func(Totals)) (Totals, error) {
	l, err := NewLayout(s)
	if err != nil {
		return Totals{}, err
	}
	var cnt Counters
	done := make(chan struct{})
	ticked := make(chan struct{})
	go func() {
		defer close(ticked)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				if progress != nil {
					progress(cnt.Snapshot())
				}
			case <-done:
				return
			}
		}
	}()
	err = Run(ctx, l, st, opts, &cnt)
	close(done)
	<-ticked
	tot := cnt.Snapshot()
	if progress != nil {
		progress(tot)
	}
	return tot, err
}

// MissingError is a check-only pass that found initial objects missing.
type MissingError struct {
	Workload string // the workload or scenario whose objects they are
	Expected int64  // initial objects in all
	Totals   Totals
}

// Error names the containers short of objects and the counts.
func (e *MissingError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d of its %d initial objects are missing", e.Workload, e.Totals.Missing, e.Expected)
	if len(e.Totals.Short) > 0 {
		b.WriteString(" (")
		for i, s := range e.Totals.Short {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s holds %d of %d", s.Container, s.Present, s.Expected)
		}
		if int64(len(e.Totals.Short)) < e.Totals.Missing && len(e.Totals.Short) == maxShort {
			b.WriteString(", ...")
		}
		b.WriteString(")")
	}
	return b.String()
}

// Add sums o into t: the counts, and the shortfalls (merged by container,
// the first by name kept, as one runner keeps them).
func (t *Totals) Add(o Totals) {
	t.Put += o.Put
	t.Skipped += o.Skipped
	t.Retried += o.Retried
	t.Failed += o.Failed
	t.Requests += o.Requests
	t.Missing += o.Missing
	t.Short = append(t.Short, o.Short...)
	slices.SortFunc(t.Short, func(a, b Shortfall) int { return strings.Compare(a.Container, b.Container) })
	t.Short = t.Short[:min(len(t.Short), maxShort)]
}
