package sweep

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"sync"
	"time"

	"benchbed/internal/cluster"
	"benchbed/internal/cluster/rings"
	"benchbed/internal/faults"
	"benchbed/internal/step"
	"benchbed/plan"
	"benchbed/plan/schedule"
	"benchbed/remote"
	"benchbed/results/rundir"
)

// faultCell is a fault cell's faults as its steps act on them: the probe
// builds them, the run's timer applies and undoes them, the check checks
// them. Its records are the cell's faults.json, written before every apply
// and after every apply and undo, so that a restore after a killed sweep
// knows what to undo.
type faultCell struct {
	ex    *cellRun
	hosts cluster.Runner // runs the scripts (the sweep's pool)
	timed []faultAction  // the plan's fault-apply and fault-undo steps, in its order
	mu    sync.Mutex
	recs  []rundir.FaultRecord // by fault index
	start time.Time            // the measured run's shared start
}

// faultAction is one timed step of the plan: fault Fault applied or
// undone At into the run, on its targets.
type faultAction struct {
	kind    schedule.Kind // schedule.StepFaultApply or StepFaultUndo
	at      time.Duration
	fault   int
	targets []faults.HostScripts
	done    bool
}

// faultProbe is the fault-probe step: it builds every fault's scripts (the
// undo with the apply) and runs every target's probe on its host; a host
// that cannot apply a fault fails the cell before anything changes, the
// probe's message naming host, kind and mechanism.
func (ex *cellRun) faultProbe(ctx context.Context) error {
	fc, err := newFaultCell(ex)
	if err != nil {
		return err
	}
	ex.faults = fc
	var errs []error
	for _, a := range fc.timed {
		if a.kind != schedule.StepFaultApply {
			continue
		}
		for _, hs := range a.targets {
			if _, err := fc.hosts.Run(ctx, hs.Target.Host, hs.Scripts.Probe); err != nil {
				errs = append(errs, fmt.Errorf("fault %d (%s) on %s: the host cannot apply it: %s", a.fault, hs.Target.Fault.Kind, hs.Target.Host, probeSays(err)))
			}
		}
	}
	return errors.Join(errs...)
}

// probeSays is what a failed probe said (its stderr's last lines, which
// name host, kind and mechanism), not the script; err itself otherwise.
func probeSays(err error) string {
	var xe *remote.ExitError
	if errors.As(err, &xe) && xe.StderrTail != "" {
		return xe.StderrTail
	}
	return err.Error()
}

// newFaultCell builds the cell's faults from the testbed, in the order of
// the plan's steps (ex.plan).
func newFaultCell(ex *cellRun) (*faultCell, error) {
	v := ex.c.Variant
	_, dur := plan.RunShape(ex.c.Workload)
	acts, err := faults.Actions(ex.tb, v, dur, ex.startScript)
	if err != nil {
		return nil, err
	}
	fc := &faultCell{ex: ex, hosts: ex.p}
	fc.timed = planOrder(ex.plan, acts)
	for i, f := range v.Faults {
		rec := rundir.FaultRecord{Variant: v.Name, Index: i, Kind: f.Kind, Hosts: f.Hosts, What: schedule.FaultText(f),
			AtS: f.At.Seconds(), EndS: f.End(dur).Seconds()}
		for _, a := range acts {
			if a.Fault == i && a.Step == schedule.StepFaultApply {
				for _, hs := range a.Targets {
					rec.IDs = append(rec.IDs, hs.Target.ID)
				}
			}
		}
		fc.recs = append(fc.recs, rec)
	}
	return fc, nil
}

// planOrder returns acts in the order of the plan's fault-apply and
// fault-undo steps (the journal follows the plan), acts' own order for a
// plan without them.
func planOrder(steps []schedule.Step, acts []faults.Action) []faultAction {
	find := func(kind schedule.Kind, i int) *faults.Action {
		for j := range acts {
			if acts[j].Step == kind && acts[j].Fault == i {
				return &acts[j]
			}
		}
		return nil
	}
	var out []faultAction
	for _, st := range steps {
		if st.Kind != schedule.StepFaultApply && st.Kind != schedule.StepFaultUndo {
			continue
		}
		if a := find(st.Kind, st.FaultIndex); a != nil {
			out = append(out, faultAction{kind: st.Kind, at: a.At, fault: a.Fault, targets: a.Targets})
		}
	}
	if len(out) == 0 {
		for _, a := range acts {
			out = append(out, faultAction{kind: a.Step, at: a.At, fault: a.Fault, targets: a.Targets})
		}
	}
	return out
}

// startScript is a direct service's start script on t's host (what a
// stop's undo runs), as the restart step starts it.
func (ex *cellRun) startScript(t faults.Target) string {
	return cluster.StartScript(ex.tb, ex.r, t.Host, t.Service.Name)
}

// applyStep is fault i's fault-apply step: faults.json names it before
// anything changes, its undo (undo, check, rings pushed) is pushed on the
// cell's stack before the apply runs (step.Runner), and the apply's end is
// recorded. The undo is reachable one way, from the stack: the fault-undo
// step takes it (undoStep), or the cell's end runs it.
func (fc *faultCell) applyStep(a *faultAction) step.Step {
	i := a.fault
	return step.Step{Name: string(schedule.StepFaultApply), Detail: fc.detail(i),
		Run: func(ctx context.Context) error {
			if err := fc.write(); err != nil {
				return err
			}
			err := fc.onTargets(ctx, a.targets, func(s faults.Scripts) string { return s.Apply })
			if err == nil {
				err = fc.pushRings(ctx, i)
			}
			fc.mu.Lock()
			fc.recs[i].AppliedS = fc.since()
			if err != nil {
				fc.recs[i].Error = fc.ex.s.Mask(err.Error())
			}
			fc.mu.Unlock()
			return errors.Join(err, fc.write())
		},
		Undo: func(ctx context.Context) error { return fc.undo(ctx, i, a.targets) },
	}
}

// detail is fault i's fault-apply step's journal detail, which also finds
// its undo on the cell's stack.
func (fc *faultCell) detail(i int) string {
	rec := fc.recs[i]
	return fmt.Sprintf("variant %s fault %d (%s) ids %s on %s", rec.Variant, i, rec.Kind, strings.Join(rec.IDs, ","), strings.Join(rec.Hosts, ","))
}

// undoStep is fault i's fault-undo step: it takes the apply's undo from
// the cell's stack and runs it (an undo that fails goes back on the stack,
// for the cell's end to try again).
func (fc *faultCell) undoStep(a *faultAction) step.Step {
	detail := fc.detail(a.fault)
	return step.Step{Name: string(schedule.StepFaultUndo), Run: func(ctx context.Context) error {
		st, ok := fc.ex.runner.Take(func(s step.Step) bool { return s.Detail == detail })
		if !ok {
			return nil // its apply never ran
		}
		err := st.Undo(ctx)
		if err != nil {
			fc.ex.runner.Push(st)
		}
		return err
	}}
}

// undo undoes fault i on every target, checks it, pushes the rings of a
// rebalance, and records when.
func (fc *faultCell) undo(ctx context.Context, i int, ts []faults.HostScripts) error {
	err := fc.onTargets(ctx, ts, func(s faults.Scripts) string { return s.Undo + "\n" + s.Check })
	if err == nil {
		err = fc.pushRings(ctx, i)
	}
	fc.mu.Lock()
	if err == nil {
		fc.recs[i].UndoneS = max(fc.since(), 0.001)
	} else {
		fc.recs[i].Error = fc.ex.s.Mask(err.Error())
	}
	fc.mu.Unlock()
	return errors.Join(err, fc.write())
}

// onTargets runs script(s) on every target's host, all at once.
func (fc *faultCell) onTargets(ctx context.Context, ts []faults.HostScripts, script func(faults.Scripts) string) error {
	errs := make([]error, len(ts))
	var wg sync.WaitGroup
	for k, hs := range ts {
		wg.Go(func() {
			if _, err := fc.hosts.Run(ctx, hs.Target.Host, script(hs.Scripts)); err != nil {
				errs[k] = fmt.Errorf("%s fault on %s: %w", hs.Target.Fault.Kind, hs.Target.Host, err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// pushRings distributes the builder host's ring of a rebalance fault after
// its apply or undo (the ring sync of setup, for the one ring the fault
// changes).
func (fc *faultCell) pushRings(ctx context.Context, i int) error {
	s := fc.ex.s
	f := fc.ex.c.Variant.Faults[i]
	if s.p == nil || f.Kind != plan.FaultRebalance {
		return nil
	}
	b, err := s.tb.BuilderHost()
	if err != nil {
		return err
	}
	rep := cluster.NewReport(cluster.Names(s.tb.Hosts))
	err = rings.DistributeRingFiles(ctx, s.p, s.tb, b, []string{path.Join(cluster.SwiftDir, f.Ring+".ring.gz")}, rep)
	s.logChanges(rep)
	return err
}

// since is the seconds from the measured run's start (0 before it).
func (fc *faultCell) since() float64 {
	if fc.start.IsZero() {
		return 0
	}
	return time.Since(fc.start).Seconds()
}

// write writes the cell's faults.json.
func (fc *faultCell) write() error {
	fc.mu.Lock()
	recs := append([]rundir.FaultRecord(nil), fc.recs...)
	fc.mu.Unlock()
	return fc.ex.run.WriteFaults(fc.ex.c.ID, recs)
}

// faultCheck is the fault-check step: every fault's check on every
// target, then every server answers health again.
func (ex *cellRun) faultCheck(ctx context.Context) error {
	fc := ex.faults
	if fc == nil {
		return errors.New("no fault-probe step built the faults")
	}
	var errs []error
	for _, a := range fc.timed {
		if a.kind == schedule.StepFaultApply {
			errs = append(errs, fc.onTargets(ctx, a.targets, func(s faults.Scripts) string { return s.Check }))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return ex.s.health(ctx, ex.r, ex.dir)
}
