package faults

import (
	"fmt"
	"slices"
	"time"

	"benchbed/plan"
	"benchbed/plan/schedule"
)

// HostScripts is one target and its scripts.
type HostScripts struct {
	Target  Target
	Scripts Scripts
}

// Action is one timed action of a fault cell: fault Fault of the variant
// applied or undone At into the measured run, on every target.
type Action struct {
	Step    schedule.Kind // schedule.StepFaultApply or StepFaultUndo
	At      time.Duration
	Fault   int
	Targets []HostScripts
}

// Actions returns the apply and undo actions of variant v's faults for a
// run of duration run, in the order of their times (an apply before an
// undo at the same time, faults in declaration order). The scripts of a
// fault's apply and undo are built together, so that the sweep can journal
// the undo and push it on its cleanup stack before it runs the apply.
// start gives a direct service's start script (the sweep's) for a stop's
// undo; nil leaves it empty.
func Actions(tb *plan.Testbed, v *plan.Variant, run time.Duration, start func(Target) string) ([]Action, error) {
	var out []Action
	for i, f := range v.Faults {
		hs, err := Scripted(tb, v, i, nil, start)
		if err != nil {
			return nil, err
		}
		out = append(out, Action{Step: schedule.StepFaultApply, At: f.At, Fault: i, Targets: hs},
			Action{Step: schedule.StepFaultUndo, At: f.End(run), Fault: i, Targets: hs})
	}
	slices.SortStableFunc(out, func(a, b Action) int {
		switch {
		case a.At != b.At:
			return int(a.At - b.At)
		case a.Step != b.Step && a.Step == schedule.StepFaultApply:
			return -1
		case a.Step != b.Step:
			return 1
		}
		return 0
	})
	return out, nil
}

// Scripted resolves fault i of variant v (Resolve) and builds the scripts
// of each of its targets that keep accepts (nil: every one), a direct
// service's Start given by start (nil: left empty), which a stop's undo
// runs: the sweep's actions and the restore's undo of a recorded fault
// both build them here. Its errors name the fault and the variant.
func Scripted(tb *plan.Testbed, v *plan.Variant, i int, keep func(Target) bool, start func(Target) string) ([]HostScripts, error) {
	ts, err := Resolve(tb, v, i)
	if err != nil {
		return nil, fmt.Errorf("fault %d of variant %s: %w", i, v.Name, err)
	}
	var hs []HostScripts
	for _, t := range ts {
		if keep != nil && !keep(t) {
			continue
		}
		if start != nil && t.Service.Manager == plan.ManagerDirect {
			t.Service.Start = start(t)
		}
		s, err := Build(t)
		if err != nil {
			return nil, fmt.Errorf("fault %d of variant %s: %w", i, v.Name, err)
		}
		hs = append(hs, HostScripts{Target: t, Scripts: s})
	}
	return hs, nil
}
