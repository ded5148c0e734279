// Package rundirtest writes run directories for other packages' tests:
// what a sweep leaves, agents' streams included.
package rundirtest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"benchbed/results"
	"benchbed/results/rundir"
)

// FaultCell describes one fault cell of a fixture run: a 30 s run of two
// agents with a slow_disk fault from 10 s to 20 s. Each second each agent
// does Rate/2 GETs of latency Lat before the fault, DuringLat during it
// (with DuringErrors 503s a second), SlowFor seconds of DuringLat after
// the undo, then Lat again.
type FaultCell struct {
	ID, Variant  string
	Rate         int
	Lat          time.Duration
	DuringLat    time.Duration
	DuringRate   int
	DuringErrors int
	SlowFor      int
	// Noise varies each second's rate by up to ±Noise operations an
	// agent (a fixed pattern), so that batch means have a spread.
	Noise int
}

// FaultRunSeconds is the fixture cells' run.
const FaultRunSeconds = 30

// WriteFaultRun writes a run directory in dir with one cell per fc (a
// summary.json whose cells carry their phases, computed from the streams
// as the sweep computes them) and returns it read back.
func WriteFaultRun(dir string, fcs ...FaultCell) (*rundir.RunResults, error) {
	run, err := rundir.Open(dir, "faults")
	if err != nil {
		return nil, err
	}
	sum := results.Summary{Run: filepath.Base(dir), Testbed: "faults"}
	for _, fc := range fcs {
		c, err := writeCell(run, fc)
		if err != nil {
			return nil, err
		}
		sum.Cells = append(sum.Cells, c)
	}
	rr := &rundir.RunResults{Dir: dir, Summary: sum}
	for i := range sum.Cells {
		fp, err := rr.CellPhases(&sum.Cells[i], results.RecoveryOptions{Gate: 0.01})
		if err != nil {
			return nil, err
		}
		sum.Cells[i].Fault = fp
	}
	if err := run.WriteSummary(&sum); err != nil {
		return nil, err
	}
	return rundir.ReadRun(dir)
}

// writeCell writes fc's faults.json and agents' streams, returning its
// cell (its totals over the run).
func writeCell(run *rundir.Run, fc FaultCell) (results.Cell, error) {
	cdir, err := run.CellDir(fc.ID)
	if err != nil {
		return results.Cell{}, err
	}
	if err := run.WriteFaults(fc.ID, []rundir.FaultRecord{{Kind: "slow_disk", Hosts: []string{"stor1"}, What: "slow_disk d1 on stor1",
		AtS: 10, EndS: 20, AppliedS: 10, UndoneS: 20}}); err != nil {
		return results.Cell{}, err
	}
	adir := filepath.Join(cdir, rundir.AgentsDir)
	if err := os.MkdirAll(adir, 0o750); err != nil {
		return results.Cell{}, err
	}
	total := results.Recording{}
	perSecond := make([]int64, FaultRunSeconds)
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for a := range 2 {
		f, err := os.Create(filepath.Join(adir, "agent-"+string(rune('1'+a))+"-client1.jsonl"))
		if err != nil {
			return results.Cell{}, err
		}
		enc := json.NewEncoder(f)
		for i := range FaultRunSeconds {
			rec := fc.second(i)
			total.Merge(rec)
			perSecond[i] += rec["GET"].LastByte.Count()
			t0 := start.Add(time.Duration(i) * time.Second)
			_ = enc.Encode(results.AgentEvent{Type: "interval", Agent: "a", Index: i, Start: t0, End: t0.Add(time.Second), Ops: rec})
		}
		err = enc.Encode(results.AgentEvent{Type: "done", Agent: "a", Duration: FaultRunSeconds})
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return results.Cell{}, err
		}
	}
	c := results.Summarise(total, FaultRunSeconds*time.Second)
	c.ID, c.Variant, c.Workload, c.Status, c.Repeat = fc.ID, fc.Variant, "get", results.StatusOK, 1
	c.PerSecond = perSecond
	return c, nil
}

// second is one agent's recording of second i.
func (fc FaultCell) second(i int) results.Recording {
	h := results.NewOpHists()
	n, lat, errs := fc.Rate/2, fc.Lat, 0
	if i >= 10 && i < 20+fc.SlowFor {
		lat = fc.DuringLat
		if fc.DuringRate > 0 {
			n = fc.DuringRate / 2
		}
	}
	if i >= 10 && i < 20 {
		errs = fc.DuringErrors
	}
	n += noise[i%len(noise)] * fc.Noise / 3
	for k := range n {
		l := lat + time.Duration(k%10)*lat/50 // a spread, so that percentiles differ
		h.FirstByte.Record(l / 2)
		h.LastByte.Record(l)
	}
	if errs > 0 {
		h.Errors["http_503"] = int64(errs)
	}
	return results.Recording{"GET": h}
}

// SeedFaultCells are the seed's two variants under one slow disk: normal
// stalls every GET during the fault and recovers 3 s after the undo;
// servers_per_port=4 only slows the GETs of the slow disk and is back at once.
var SeedFaultCells = []FaultCell{
	{ID: "001-normal-get-r1", Variant: "normal", Rate: 200, Lat: 10 * time.Millisecond, DuringLat: 120 * time.Millisecond,
		DuringRate: 40, DuringErrors: 2, SlowFor: 3},
	{ID: "002-servers_per_port=4-get-r1", Variant: "servers_per_port=4", Rate: 200, Lat: 10 * time.Millisecond,
		DuringLat: 25 * time.Millisecond, DuringRate: 150},
}

// noise is the fixed pattern of FaultCell.Noise, in thirds of it.
var noise = []int{0, 3, -2, 1, -3, 2, -1, 3, -2, 0, 1, -1}
