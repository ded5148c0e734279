package metrics

import (
	"errors"
	"fmt"
	"io"
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
// hosts' telemetry of the cell; a cell without streams (a command
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
	begun := false
	var last time.Time
	m := results.MergeStreamsEach(streams, nil, func(i int, ev results.AgentEvent) {
		if ev.Type == "interval" && !begun {
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
