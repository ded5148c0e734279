package agents

import (
	"context"
	"fmt"
	"io"
	"strings"

	"benchbed/load/prefill"
	"benchbed/plan"
	"benchbed/plan/scenario"
	"benchbed/plan/schedule"
)

// unprefilled returns the workloads whose cells need initial objects that
// no prefill block creates, one per layout (axis points often share one),
// with their scenarios and layouts (workloadLayout).
func unprefilled(tb *plan.Testbed) ([]*plan.Workload, []*scenario.Scenario, []*prefill.Layout, error) {
	var ws []*plan.Workload
	var scs []*scenario.Scenario
	var ls []*prefill.Layout
	seen := map[string]bool{}
	for _, w := range schedule.InitialChecks(tb) {
		sc, l, err := workloadLayout(w)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("workload %s: %w", w.Name, err)
		}
		if seen[l.Fingerprint()] {
			continue
		}
		seen[l.Fingerprint()] = true
		ws, scs, ls = append(ws, w), append(scs, sc), append(ls, l)
	}
	return ws, scs, ls, nil
}

// CheckInitial is the sweep's precondition when the workloads' initial
// objects are not the prefill block's to create: the prefill's listing
// check, from agents on the workloads' clients, with no PUT. It returns an
// error naming each workload whose objects are missing, the containers
// short of them and the counts, and how to prefill; nil when every object
// is in place (or no workload needs any).
func CheckInitial(ctx context.Context, tb *plan.Testbed, hosts PrefillHosts, log io.Writer) error {
	ws, scs, ls, err := unprefilled(tb)
	if err != nil || len(ws) == 0 {
		return err
	}
	var missing []error
	for i, w := range ws {
		l := ls[i]
		p := &prefillPass{tb: tb, w: w, hosts: hosts, l: l, policy: scs[i].Policy, check: true,
			pf: &plan.Prefill{AgentsPerClient: 1, Concurrency: plan.DefaultPrefillConc, Verify: "listing"}}
		t, err := p.run(ctx, "check", nil)
		if err != nil {
			return fmt.Errorf("checking the initial objects of %s: %w", w.Name, err)
		}
		if log != nil {
			fmt.Fprintf(log, "sweep: precondition %s: %d of %d initial objects in place (%d listing requests)\n",
				w.Name, t.Skipped, l.Total(), t.Requests)
		}
		if t.Missing > 0 {
			missing = append(missing, &prefill.MissingError{Workload: "workload " + w.Name, Expected: l.Total(), Totals: t})
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return &preconditionError{Missing: missing, File: tb.File, Workloads: workloadNames(ws)}
}

// preconditionError is a sweep refused before any change: initial objects
// its workloads read are missing and no prefill block creates them.
type preconditionError struct {
	Missing   []error  // one *prefill.MissingError per workload
	File      string   // the testbed file
	Workloads []string // the workloads checked
}

// Error names what is missing and how to prefill.
func (e *preconditionError) Error() string {
	var b strings.Builder
	b.WriteString("precondition: initial objects are missing, and the testbed has no prefill block that creates them:")
	for _, m := range e.Missing {
		b.WriteString("\n  " + m.Error())
	}
	fmt.Fprintf(&b, "\nto create them, add `prefill { workloads = [%s] }` to %s and sweep again (or run `benchbed prefill %s` once); nothing was changed",
		quoteAll(e.Workloads), e.File, e.File)
	return b.String()
}

// Unwrap gives the missing errors.
func (e *preconditionError) Unwrap() []error { return e.Missing }

var _ error = (*preconditionError)(nil)

// workloadNames lists the workloads' names.
func workloadNames(ws []*plan.Workload) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Name
	}
	return out
}

// quoteAll renders xs as HCL strings separated by commas.
func quoteAll(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}
