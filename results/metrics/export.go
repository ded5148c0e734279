package metrics

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"time"

	"benchbed/results"
	"benchbed/results/rundir"
)

// ExportRun hands send, cell by cell, the points a live stream would have
// sent of a finished run's measured runs: each cell's agents' streams
// (cells/<id>/agents/*.jsonl) merged by interval, phase "run", with the
// hosts' telemetry of the cell, a fault cell's intervals labelled by its
// windows (faults.json: fault_before, fault_during from the first apply
// to the last undo, fault_after); a cell without streams (a command
// workload's, one never run) is skipped. It returns the cells exported
// and every error met (send's stop the export).
func ExportRun(rr *rundir.RunResults, send func([]Point) error) (int, error) {
	var errs []error
	n := 0
	for i := range rr.Summary.Cells {
		c := &rr.Summary.Cells[i]
		pts, err := cellPoints(rr, c)
		if err != nil {
			errs = append(errs, fmt.Errorf("cell %s: %w", c.ID, err))
		}
		if len(pts) == 0 {
			continue
		}
		if err := send(pts); err != nil {
			return n, errors.Join(append(errs, fmt.Errorf("cell %s: %w", c.ID, err))...)
		}
		n++
	}
	return n, errors.Join(errs...)
}

// cellPoints are one cell's points: its streams merged, then its hosts'
// telemetry under the cell's run state.
func cellPoints(rr *rundir.RunResults, c *results.Cell) ([]Point, error) {
	dir := rr.CellDir(c)
	if dir == "" {
		return nil, nil
	}
	files, err := filepath.Glob(filepath.Join(dir, rundir.AgentsDir, "*.jsonl"))
	if err != nil || len(files) == 0 {
		return nil, err
	}
	sort.Strings(files)
	streams := make([]io.Reader, 0, len(files))
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		streams = append(streams, f)
	}
	var pts []Point
	agg := NewAggregator(func(p []Point) { pts = append(pts, p...) })
	st := State{Run: rr.Summary.Run, Testbed: rr.Summary.Testbed, Variant: c.Variant, Workload: c.Workload,
		Cell: c.ID, Repeat: c.Repeat, Phase: PhaseRun}
	faults, err := rundir.ReadFaults(dir)
	if err != nil {
		return nil, err
	}
	begun := false
	var last time.Time
	m := results.MergeStreamsEach(streams, nil, func(i int, ev results.AgentEvent) {
		if ev.Type == "interval" && !begun {
			if len(faults) > 0 {
				st.Phase, agg.PhaseOf = PhaseFaultBefore, faultWindows(faults, ev.Start)
			}
			agg.Phase(st, make([]string, len(streams)), ev.Start)
			begun = true
		}
		if ev.End.After(last) {
			last = ev.End
		}
		agg.Event(i, ev)
	})
	if !begun {
		return nil, m.Err
	}
	hosts, err := rr.ReadTelemetry(c)
	for _, h := range hosts {
		for _, s := range h.Samples {
			if s.Host == "" {
				s.Host = h.Host
			}
			agg.Telemetry(s)
		}
	}
	agg.End(last)
	return pts, errors.Join(m.Err, err)
}

// faultWindows names an interval's phase by its start against a fault
// cell's faults, their times from the run's start (its first interval's):
// before the first apply, during until the last undo (or the run's end),
// after.
func faultWindows(fs []rundir.FaultRecord, start time.Time) func(time.Time) string {
	from, to := -1.0, -1.0
	for _, f := range fs {
		if f.AppliedS <= 0 && f.Error != "" {
			continue // never applied
		}
		if from < 0 || f.AppliedS < from {
			from = f.AppliedS
		}
		undone := f.UndoneS
		if undone <= 0 {
			undone = math.Inf(1)
		}
		to = max(to, undone)
	}
	return func(t time.Time) string {
		s := t.Sub(start).Seconds()
		switch {
		case from < 0 || s < from:
			return PhaseFaultBefore
		case s < to:
			return PhaseFaultDuring
		}
		return PhaseFaultAfter
	}
}
