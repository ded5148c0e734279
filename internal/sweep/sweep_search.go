package sweep

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"

	"benchbed/internal/agents"
	"benchbed/plan/schedule"
	"benchbed/results"
	"benchbed/results/rundir"
	"benchbed/results/telemetry"
)

// ProbesDir is where a search cell keeps its probes' agent streams, one
// directory per probe ("01-200" is the first, at 200 req/s).
const ProbesDir = "probes"

// search is a search cell's step: after its variant's before commands,
// results.Search with every probe a run of the workload's agents (started
// during the previous probe, the first's ahead: runLoad), open loop at the
// probe's rate (each agent its share) for its length. The cell's figures are those of the probe at the capacity (the
// confirming one; the last probe when none passed), cell.Search the
// answer with every probe; each probe is journaled as it ends.
func (ex *cellRun) search(ctx context.Context) error {
	s, c := ex.s, ex.c
	v, w := c.Variant, c.Workload
	if err := s.beforeCommands(ctx, "variant "+v.Name+" before", v.Before, v.BeforeOn, w.Clients); err != nil {
		return err
	}
	byRate := map[float64]results.Cell{}
	var last results.Cell
	n := 0
	probe := func(ctx context.Context, rate float64) (results.ProbeOutcome, error) {
		n++
		ar := s.agentRun(c, 0, &ex.tele)
		ar.Rate, ar.Duration, ar.Ops, ar.Fill = rate, w.Search.Probe, 0, nil
		ar.Live = s.liveLine(fmt.Sprintf("probe %d", n), &ex.tele)
		ar.LogDir = filepath.Join(ex.dir, ProbesDir, fmt.Sprintf("%02d-%.0f", n, rate), rundir.AgentsDir)
		ar.Started = ex.tele.phaseAt(telemetry.PhaseRun, ar.Duration)
		m, err := ex.runLoad(ctx, ex.ahead.run.Load(), ar, true, agents.PhaseProbe)
		ex.tele.idle()
		if err != nil {
			return results.ProbeOutcome{}, err
		}
		cell := results.Summarise(m.Recording, m.Duration)
		cell.PerSecond = m.PerSecond
		byRate[rate], last = cell, cell
		o := results.ProbeOutcome{Total: cell.Total, DurationS: cell.DurationS, ClientCPU: m.ClientCPU}
		if s.scriptProbe != nil {
			o = s.scriptProbe(rate, o)
		}
		return o, nil
	}
	se := &results.Search{SLO: w.Search.SLO, From: w.Search.From, To: w.Search.To, Resolution: w.Search.Resolution,
		Probe: probe, OnProbe: func(p results.ProbeRecord) { ex.journalProbe(n, p) }}
	res, err := se.Run(ctx)
	ex.ahead.run.Load().drop((*agents.Prepared).Close) // the agents after the last probe
	cell := last
	if res != nil {
		if got, ok := byRate[res.Capacity]; ok {
			cell = got
		}
	}
	cell.ID, cell.Variant, cell.Workload, cell.Repeat = c.ID, v.Name, w.Name, c.Repeat
	cell.Params, cell.Search, cell.WarmedUp = w.Params(), res, ex.tele.warmReason()
	if cell.Status = cellStatus(ctx, err); cell.OK() {
		s.logf("  %s", searchLine(res))
	}
	*ex.res = cell
	if werr := s.run.WriteCell(c.ID, ex.res); werr != nil && err == nil {
		err = werr
	}
	return err
}

// journalProbe journals probe n as a probe entry of the cell and logs it.
func (ex *cellRun) journalProbe(n int, p results.ProbeRecord) {
	verdict := "pass"
	if !p.Pass {
		verdict = "fail"
	}
	line := fmt.Sprintf("probe %d (%s) at %.4g req/s: achieved %.4g, %s: %s", n, p.Role, p.Offered, p.Achieved, p.Why, verdict)
	ex.s.logf("  %s", line)
	ex.s.steps.Add(rundir.Entry{Step: string(schedule.StepProbe), Cell: ex.c.ID, Status: rundir.StepOK, Detail: line,
		Data: map[string]string{"probe": strconv.Itoa(n), "role": p.Role, "offered_req_per_s": strconv.FormatFloat(p.Offered, 'g', 6, 64),
			"pass": strconv.FormatBool(p.Pass)}})
}

// searchLine says a search's answer on one line.
func searchLine(res *results.SearchResult) string {
	if res.Capacity > 0 {
		return fmt.Sprintf("capacity at %s: %.4g req/s (%s: %s)", res.SLO, res.Capacity, res.Outcome, res.Why)
	}
	return fmt.Sprintf("%s (%s): %s", res.Outcome, res.SLO, res.Why)
}
