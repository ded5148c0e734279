package sweep

import (
	"cmp"
	"context"
	"time"

	"benchbed/internal/agents"
	"benchbed/internal/cluster"
	"benchbed/internal/step"
	"benchbed/plan"
	"benchbed/plan/scenario"
	"benchbed/plan/schedule"
	"benchbed/results/telemetry"
)

// dropCachesScript empties the page cache (and dentries and inodes), after
// writing back what is dirty.
const dropCachesScript = "sync && echo 3 > /proc/sys/vm/drop_caches"

// cellTelemetry is a cell's telemetry agents, as its telemetry-start step
// left them, and whether its drop-caches step emptied the object hosts'
// caches. Its methods do nothing without agents (nil or none started).
type cellTelemetry struct {
	agents  *agents.Telemetry // nil: none
	dropped bool
	// runStarted, when set, also learns the measured run's shared start
	// (a fault cell's timer).
	runStarted func(time.Time)
	// warmedUp is why a warmup = "auto" ended (the cell's WarmedUp).
	warmedUp string
}

// startTelemetry is the telemetry-start step: it starts the cell's
// telemetry agents, one per host (telemetry { enabled }); a cell whose
// agents cannot start runs without telemetry, said in the log. Its undo,
// stopTelemetry, stops any still running when the cell ends (the telemetry
// step stops them once the run is summarised).
func (ex *cellRun) startTelemetry(ctx context.Context) error {
	s := ex.s
	if !s.tb.Telemetry.Enabled {
		return nil
	}
	th, ok := s.opts.Agents.(agents.TelemetryHosts)
	if !ok {
		s.logf("  telemetry: the agents' hosts cannot start telemetry agents; this cell has none")
		return nil
	}
	var ta *agents.Telemetry
	var err error
	if ex.ahead.tele != nil { // started during the health wait
		ta, err = ex.ahead.tele.take()
	} else {
		ta, err = ex.launchTelemetry(ctx, th)
	}
	if err != nil {
		s.logf("  telemetry: %v; this cell has none", err)
		return nil
	}
	for _, w := range ta.Warnings() {
		s.logf("  telemetry: %s", w)
	}
	ex.tele.agents = ta
	return nil
}

// launchTelemetry starts the cell's telemetry agents.
func (ex *cellRun) launchTelemetry(ctx context.Context, th agents.TelemetryHosts) (*agents.Telemetry, error) {
	s, c := ex.s, ex.c
	return agents.StartTelemetry(ctx, th, agents.TelemetryConfigs(s.tb, s.made.rend[c.Variant.Name]), func(host string) (string, error) {
		return s.run.TelemetryFile(c.ID, host)
	})
}

// stopTelemetry, the telemetry-start step's undo, stops the cell's
// agents: the one way they stop, from the cell's stack, as the telemetry
// step takes it (finishTelemetry) or as the cell ends.
func (ex *cellRun) stopTelemetry(context.Context) error {
	ta := ex.tele.agents
	if ta == nil {
		return nil
	}
	ex.tele.agents = nil
	return ta.Stop()
}

// dropCaches empties the object hosts' page caches before the measured
// run (telemetry { drop_caches = true }).
func (ex *cellRun) dropCaches(ctx context.Context) error {
	s := ex.s
	if !s.tb.Telemetry.DropCaches {
		return nil
	}
	err := s.p.FanOut(ctx, cluster.Names(s.tb.HostsWithRole(plan.RoleObject)), func(ctx context.Context, host string) error {
		_, err := s.p.Run(ctx, host, dropCachesScript)
		return err
	}).Err()
	ex.tele.dropped = err == nil
	return err
}

// finishTelemetry stops the cell's agents (the telemetry-start step's undo,
// taken from the cell's stack), summarises their run-phase
// samples into res.Telemetry and rewrites the cell's result. A telemetry
// failure is logged; the cell's status stays its measurement's.
func (ex *cellRun) finishTelemetry(ctx context.Context) error {
	s, c, res := ex.s, ex.c, ex.res
	ta := ex.tele.agents
	if ta == nil {
		return nil
	}
	if st, ok := ex.runner.Take(func(st step.Step) bool { return st.Name == string(schedule.StepTelemetryStart) }); ok {
		if err := st.Undo(context.WithoutCancel(ctx)); err != nil {
			s.logf("  telemetry: %v", err)
		}
	}
	in := telemetry.CellInput{Interval: s.tb.Telemetry.Interval, ObjectHosts: cluster.Names(s.tb.HostsWithRole(plan.RoleObject)),
		WorkingSetMB: workingSetMB(c.Workload), Dropped: ex.tele.dropped}
	for _, h := range ta.Hosts {
		in.Hosts = append(in.Hosts, telemetry.HostSamples{Host: h, Samples: s.hostSamples(c, h)})
	}
	sum := telemetry.Summarise(in)
	res.Telemetry = &sum
	s.logf("  telemetry: %s; busiest disk %s", sum.Bottleneck, cmp.Or(sum.Busiest, "none"))
	if pc := sum.PageCache; pc != nil && pc.Warning != "" {
		s.logf("  warning: %s", pc.Warning)
	}
	return s.run.WriteCell(c.ID, res)
}

// hostSamples reads host's samples of cell c (up to a damaged line).
func (s *Sweeper) hostSamples(c plan.Cell, host string) []telemetry.Sample {
	p, err := s.run.TelemetryFile(c.ID, host)
	var samples []telemetry.Sample
	if err == nil {
		samples, err = telemetry.ReadSamples(p)
	}
	if err != nil {
		s.logf("  telemetry: %s: %v", host, err)
	}
	return samples
}

// phaseAt returns what switches the agents to phase at the load agents'
// shared start and back to idle d later (d > 0: a timed run), nil without
// telemetry.
func (t *cellTelemetry) phaseAt(phase string, d time.Duration) func(time.Time) {
	if t == nil || t.agents == nil {
		return nil
	}
	ta := t.agents
	return func(start time.Time) {
		changes := []agents.PhaseChange{{Phase: phase, At: start}}
		if d > 0 {
			changes = append(changes, agents.PhaseChange{Phase: telemetry.PhaseIdle, At: start.Add(d)})
		}
		ta.PhasesAt(changes...)
	}
}

// now switches the agents to phase now (a command workload's run, which
// has no shared start).
func (t *cellTelemetry) now(phase string) {
	if t != nil && t.agents != nil {
		t.agents.Phase(phase)
	}
}

// idle switches the agents back to idle once a load run ended (an
// operation-count run, or one that ended early).
func (t *cellTelemetry) idle() { t.now(telemetry.PhaseIdle) }

// busiest is the live line's busiest host and disk ("" without telemetry).
func (t *cellTelemetry) busiest() string {
	if t == nil || t.agents == nil {
		return ""
	}
	return telemetry.Busiest(t.agents.Latest())
}

// workingSetMB is the data the workload's GETs read: the initial files
// of every size class whose profile has GETs (the second of create, read,
// update, delete), times their mean size, in MB.
func workingSetMB(w *plan.Workload) float64 {
	sc, err := scenario.Parse(w.ScenarioJSON)
	if err != nil {
		return 0
	}
	var bytes float64
	for _, z := range sc.Sizes {
		p := sc.CrudProfile
		if z.CrudProfile != nil {
			p = z.CrudProfile
		}
		if len(p) == 4 && p[1] > 0 {
			bytes += float64(sc.InitialFiles[z.Name]) * float64(z.SizeMin+z.SizeMax) / 2
		}
	}
	return bytes / (1 << 20)
}

// warmReason is why the cell's warmup = "auto" ended ("" for others).
func (t *cellTelemetry) warmReason() string {
	if t == nil {
		return ""
	}
	return t.warmedUp
}
