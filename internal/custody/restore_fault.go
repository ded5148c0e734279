package custody

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"

	"benchbed/internal/cluster"
	"benchbed/internal/cluster/rings"
	"benchbed/internal/faults"
	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/remote"
	"benchbed/results/rundir"
)

// faults undoes every fault the run's cells applied and did not undo
// (their faults.json), then checks every fault of the run on its hosts:
// before the files, since a frozen or stopped server must be back before
// the servers restart. What it cannot undo is its error, which fails the
// restore once the files are back (a step Later).
func (rs *restore) faults(ctx context.Context) error {
	recs, err := runFaults(rs.run.Dir)
	if err != nil || len(recs) == 0 {
		return err
	}
	rings := func(ctx context.Context) error {
		b, err := rs.tb.BuilderHost()
		if err != nil {
			return err
		}
		return rings.DistributeRings(ctx, rs.p, rs.tb, b, cluster.NewReport(cluster.Names(rs.tb.Hosts)))
	}
	err = undoFaults(ctx, rs.tb, rs.p, recs, rings, rs.logf)
	if err != nil {
		rs.logf("faults left: %v", err)
	}
	return err
}

// runFaults reads the faults.json of every cell of the run in dir, in the
// order of the cells' ids.
func runFaults(dir string) ([]rundir.FaultRecord, error) {
	files, err := filepath.Glob(filepath.Join(dir, rundir.CellsDir, "*", rundir.FaultsFile))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []rundir.FaultRecord
	for _, f := range files {
		recs, err := rundir.ReadFaults(filepath.Dir(f))
		if err != nil {
			return nil, err
		}
		out = append(out, recs...)
	}
	return out, nil
}

// undoFaults builds each recorded fault again from tb (faults.Resolve and
// Build, the targets the record names), runs its undo where the record
// says it is not undone (then rings, after a rebalance's), and then, for
// every record, its check and that no state file of it is left. Every
// fault is tried; the errors are joined.
func undoFaults(ctx context.Context, tb *plan.Testbed, r cluster.Runner, recs []rundir.FaultRecord,
	rings func(context.Context) error, logf func(string, ...any)) error {
	var errs []error
	for _, rec := range recs {
		ts, err := recordTargets(tb, rec)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if rec.UndoneS == 0 {
			logf("undoing %s fault %d of variant %s on %v (%s)", rec.Kind, rec.Index, rec.Variant, rec.Hosts, rec.What)
			var uerr error
			for _, hs := range ts {
				if _, err := r.Run(ctx, hs.Target.Host, hs.Scripts.Undo); err != nil {
					uerr = errors.Join(uerr, fmt.Errorf("undo of %s fault %d of variant %s on %s: %w", rec.Kind, rec.Index, rec.Variant, hs.Target.Host, err))
				}
			}
			if uerr == nil && rec.Kind == plan.FaultRebalance && rings != nil {
				uerr = rings(ctx)
			}
			errs = append(errs, uerr)
		}
		for _, hs := range ts {
			if _, err := r.Run(ctx, hs.Target.Host, hs.Scripts.Check+noStateLeft(hs.Target.ID)); err != nil {
				errs = append(errs, fmt.Errorf("check of %s fault %d of variant %s on %s: %w", rec.Kind, rec.Index, rec.Variant, hs.Target.Host, err))
			}
		}
	}
	return errors.Join(errs...)
}

// recordTargets returns the targets of a recorded fault with their
// scripts, those the record names (all when it names none); a stop's
// undo starts a direct service as its variant runs it.
func recordTargets(tb *plan.Testbed, rec rundir.FaultRecord) ([]faults.HostScripts, error) {
	v := tb.Variant(rec.Variant)
	if v == nil {
		return nil, fmt.Errorf("fault %d of variant %s: the testbed has no such variant any more; undo it by hand on %v", rec.Index, rec.Variant, rec.Hosts)
	}
	keep := func(t faults.Target) bool { return len(rec.IDs) == 0 || slices.Contains(rec.IDs, t.ID) }
	var start func(faults.Target) string
	var rend *render.Rendering
	var rerr error
	if rec.Kind == plan.FaultStop {
		start = func(t faults.Target) string {
			if rend == nil && rerr == nil {
				rend, rerr = render.Render(tb, v, render.Options{})
			}
			if rerr != nil {
				return ""
			}
			return cluster.StartScript(tb, rend, t.Host, t.Service.Name)
		}
	}
	hs, err := faults.Scripted(tb, v, rec.Index, keep, start)
	if rerr != nil {
		return nil, rerr
	}
	return hs, err
}

// noStateLeft fails when a state file of fault id is left on its host (in
// faults.StateDir, or where an earlier version kept it).
func noStateLeft(id string) string {
	st, old := remote.Quote(faults.StateDir+"/"+id), remote.Quote(faults.OldStateDir+"/"+id)
	return fmt.Sprintf("\nfor f in %[1]s %[1]s.* %[2]s %[2]s.*; do [ ! -e \"$f\" ] || { echo \"$host: state file $f is left\" >&2; exit 1; }; done\n", st, old)
}
