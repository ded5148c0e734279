package schedule

import (
	"fmt"
	"time"

	"benchbed/plan"
)

// Assumed costs of the steps whose time the testbed does not say. They are
// guesses for a LAN lab, printed with every estimate.
const (
	AssumeRender       = 5 * time.Second  // push one conf to its hosts in parallel
	AssumeRestart      = 30 * time.Second // stop, start and health-check one service on its hosts
	AssumeRingSwitch   = 20 * time.Second // set_info, write_ring, copy; servers re-read within ring_check_interval
	AssumePrefillPerAg = 250.0            // objects created per second by one prefill agent
)

// Estimate is the time a sweep should take.
type Estimate struct {
	Total       time.Duration   // sum of PerCell and the prefill
	PerCell     []time.Duration // steps of each cell, prefill excluded
	Prefill     time.Duration   // creating the initial objects (0 without prefill)
	Unbounded   int             // runs bounded by operation count, not time: not in Total
	Commands    int             // command workloads' runs: as long as their commands, not in Total
	Assumptions []string        // what the figures assume
}

// estimate adds up the steps of p.
func estimate(p *Plan) Estimate {
	e := Estimate{Assumptions: []string{
		fmt.Sprintf("%v per conf rendered, %v per service restart (a generic service's too), %v per ring port switch", AssumeRender, AssumeRestart, AssumeRingSwitch),
		fmt.Sprintf("prefill creates %.0f objects/s per agent (an existing prefill is resumed and takes less)", AssumePrefillPerAg),
		"runs and warmups last as configured",
	}}
	for _, s := range p.Before {
		if s.Kind == StepPrefill && !s.Unchanged {
			e.Prefill += prefillTime(p.Testbed.Workload(s.Workload), s.Agents)
		}
	}
	for _, c := range p.Cells {
		var d time.Duration
		for _, s := range c.Steps {
			if s.Unchanged {
				continue
			}
			switch s.Kind {
			case StepPushConf:
				d += AssumeRender
			case StepRestart, StepServices:
				d += AssumeRestart
			case StepRingPorts:
				d += AssumeRingSwitch
			case StepWarmup, StepRun:
				if w := p.Testbed.Workload(s.Workload); w != nil && w.IsCommand() {
					e.Commands++
					continue
				}
				if s.Duration == 0 {
					e.Unbounded++
				}
				d += s.Duration
			}
		}
		e.PerCell = append(e.PerCell, d)
		e.Total += d
	}
	if e.Unbounded > 0 {
		e.Assumptions = append(e.Assumptions, fmt.Sprintf("%d runs end after an operation count or a fill target and are not counted", e.Unbounded))
	}
	if e.Commands > 0 {
		e.Assumptions = append(e.Assumptions, fmt.Sprintf("%d command workload runs last as long as their commands and are not counted", e.Commands))
	}
	e.Total += e.Prefill
	return e
}

// prefillTime is the assumed time to create w's initial files with agents.
func prefillTime(w *plan.Workload, agents int) time.Duration {
	n := plan.InitialObjects(w)
	if n == 0 || agents < 1 {
		return 0
	}
	return time.Duration(float64(n) / (AssumePrefillPerAg * float64(agents)) * float64(time.Second))
}
