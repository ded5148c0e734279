package orchestrate

import (
	"context"
	"time"

	"benchbed/plan"
	"benchbed/plan/scenario"
	"benchbed/results"
	"benchbed/results/telemetry"
)

// dropCachesScript empties the page cache (and dentries and inodes), after
// writing back what is dirty.
const dropCachesScript = "sync && echo 3 > /proc/sys/vm/drop_caches"

// startCellTelemetry starts the cell's telemetry agents, one per host
// (telemetry { enabled }); a cell whose agents cannot start runs without
// telemetry, said in the log.
func (s *Sweeper) startCellTelemetry(ctx context.Context, c plan.Cell) error {
	if !s.tb.Telemetry.Enabled {
		return nil
	}
	th, ok := s.opts.Agents.(telemetryHosts)
	if !ok {
		s.logf("  telemetry: the agents' hosts cannot start telemetry agents; this cell has none")
		return nil
	}
	ta, err := startTelemetry(ctx, th, telemetryConfigs(s.tb, s.rend[c.Variant.Name]), func(host string) (string, error) {
		return s.run.TelemetryFile(c.ID, host)
	})
	if err != nil {
		s.logf("  telemetry: %v; this cell has none", err)
		return nil
	}
	for _, w := range ta.warnings() {
		s.logf("  telemetry: %s", w)
	}
	s.tele = ta
	return nil
}

// dropCaches empties the object hosts' page caches before the measured
// run (telemetry { drop_caches = true }).
func (s *Sweeper) dropCaches(ctx context.Context) error {
	if !s.tb.Telemetry.DropCaches {
		return nil
	}
	err := s.p.FanOut(ctx, names(s.tb.HostsWithRole(plan.RoleObject)), func(ctx context.Context, host string) error {
		_, err := s.p.Run(ctx, host, dropCachesScript)
		return err
	}).Err()
	s.dropped = err == nil
	return err
}

// finishCellTelemetry stops the cell's agents, summarises their run-phase
// samples into res.Telemetry and rewrites the cell's result. A telemetry
// failure is logged; the cell's status stays its measurement's.
func (s *Sweeper) finishCellTelemetry(c plan.Cell, res *results.Cell) error {
	ta := s.tele
	if ta == nil {
		return nil
	}
	s.tele = nil
	if err := ta.stop(); err != nil {
		s.logf("  telemetry: %v", err)
	}
	in := telemetry.CellInput{Interval: s.tb.Telemetry.Interval, ObjectHosts: names(s.tb.HostsWithRole(plan.RoleObject)),
		WorkingSetMB: workingSetMB(c.Workload), Dropped: s.dropped}
	for _, h := range ta.hosts {
		in.Hosts = append(in.Hosts, telemetry.HostSamples{Host: h, Samples: s.hostSamples(c, h)})
	}
	sum := telemetry.Summarise(in)
	res.Telemetry = &sum
	s.logf("  telemetry: %s; busiest disk %s", sum.Bottleneck, or(sum.Busiest, "none"))
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

// stopCellTelemetry stops the agents of a cell that failed.
func (s *Sweeper) stopCellTelemetry() {
	if s.tele != nil {
		_ = s.tele.stop()
		s.tele = nil
	}
}

// telemetryPhase returns what switches the agents to phase at the load
// agents' shared start and back to idle d later (d > 0: a timed run),
// nil without telemetry.
func (s *Sweeper) telemetryPhase(phase string, d time.Duration) func(time.Time) {
	ta := s.tele
	if ta == nil {
		return nil
	}
	return func(start time.Time) {
		changes := []phaseChange{{phase, start}}
		if d > 0 {
			changes = append(changes, phaseChange{telemetry.PhaseIdle, start.Add(d)})
		}
		ta.phasesAt(changes...)
	}
}

// telemetryNow switches the agents to phase now (a command workload's
// run, which has no shared start).
func (s *Sweeper) telemetryNow(phase string) {
	if s.tele != nil {
		s.tele.phase(phase)
	}
}

// telemetryIdle switches the agents back to idle once a load run ended
// (an operation-count run, or one that ended early).
func (s *Sweeper) telemetryIdle() { s.telemetryNow(telemetry.PhaseIdle) }

// busiestNow is the live line's busiest host and disk ("" without
// telemetry).
func (s *Sweeper) busiestNow() string {
	if s.tele == nil {
		return ""
	}
	return telemetry.Busiest(s.tele.latest())
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
