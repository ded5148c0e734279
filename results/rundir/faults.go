package rundir

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"benchbed/results"
)

// FaultsFile is a fault cell's journal of its faults (cells/<id>/faults.json).
const FaultsFile = "faults.json"

// FaultRecord is one fault of a cell as the sweep applied it: what, where,
// and when, in seconds from the measured run's start (planned and as done).
type FaultRecord struct {
	// Variant and Index name the fault (the variant's Faults[Index]), and
	// IDs its targets' ids (internal/faults), so that a restore can build
	// its undo again from the run's testbed.
	Variant  string   `json:"variant"`
	Index    int      `json:"index"`
	IDs      []string `json:"ids,omitempty"`
	Kind     string   `json:"kind"`
	Hosts    []string `json:"hosts"`
	What     string   `json:"what"`      // the plan's text of it
	AtS      float64  `json:"at_s"`      // planned apply
	EndS     float64  `json:"end_s"`     // planned undo
	AppliedS float64  `json:"applied_s"` // when the apply finished
	UndoneS  float64  `json:"undone_s"`  // when the undo finished (0: not undone in the run)
	Error    string   `json:"error,omitempty"`
}

// WriteFaults writes cell id's faults.json.
func (r *Run) WriteFaults(id string, fs []FaultRecord) error {
	dir, err := r.CellDir(id)
	if err != nil {
		return err
	}
	return WriteJSONFile(filepath.Join(dir, FaultsFile), fs)
}

// ReadFaults reads a cell's faults.json; nil without error for a cell
// without faults.
func ReadFaults(cellDir string) ([]FaultRecord, error) {
	b, err := os.ReadFile(filepath.Join(cellDir, FaultsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []FaultRecord
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(cellDir, FaultsFile), err)
	}
	return out, nil
}

// FaultWindow is the window of a cell's faults: from the first apply to
// the last undo (as done; planned where not recorded), at most run.
func FaultWindow(fs []FaultRecord, run time.Duration) results.Window {
	var w results.Window
	for i, f := range fs {
		at, end := or(f.AppliedS, f.AtS), or(f.UndoneS, f.EndS)
		a, e := secs(at), min(secs(end), run)
		if i == 0 || a < w.Start {
			w.Start = a
		}
		w.End = max(w.End, e)
	}
	return w
}

func or(x, def float64) float64 {
	if x > 0 {
		return x
	}
	return def
}

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// CellPhases reads cell c's agents' streams and splits them around the
// window of its faults (faults.json): nil for a cell without faults.
// The streams are merged interval by interval (each agent's is in order),
// so memory holds one interval per agent, not the run.
func (r *RunResults) CellPhases(c *results.Cell, opts results.RecoveryOptions) (*results.FaultPhases, error) {
	dir := r.CellDir(c)
	if dir == "" {
		return nil, nil
	}
	fs, err := ReadFaults(dir)
	if err != nil || len(fs) == 0 {
		return nil, err
	}
	run := secs(c.DurationS)
	s := results.NewSplit(FaultWindow(fs, run), time.Second, opts)
	files, err := filepath.Glob(filepath.Join(dir, AgentsDir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, AgentsDir), ErrNoStreams)
	}
	sort.Strings(files)
	if err := mergeIntervals(files, s.Add); err != nil {
		return nil, err
	}
	fp := s.Close(run)
	return &fp, nil
}

// intervalReader yields one agent stream's interval events in order.
type intervalReader struct {
	path string
	f    *os.File
	sc   *bufio.Scanner
	cur  *results.AgentEvent
}

// next reads the stream's next interval event, or sets cur to nil at its end.
func (ir *intervalReader) next() error {
	ir.cur = nil
	for ir.sc.Scan() {
		var ev results.AgentEvent
		if err := json.Unmarshal(ir.sc.Bytes(), &ev); err != nil {
			return fmt.Errorf("%s: %w", ir.path, err)
		}
		if ev.Type == "interval" {
			ir.cur = &ev
			return nil
		}
	}
	return ir.sc.Err()
}

// mergeIntervals calls add with every interval index in order, the
// agents' recordings of that index merged.
func mergeIntervals(files []string, add func(int, results.Recording) error) error {
	var rs []*intervalReader
	defer func() {
		for _, r := range rs {
			r.f.Close()
		}
	}()
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 1<<16), 64<<20)
		ir := &intervalReader{path: p, f: f, sc: sc}
		rs = append(rs, ir)
		if err := ir.next(); err != nil {
			return err
		}
	}
	for {
		low := -1
		for _, r := range rs {
			if r.cur != nil && (low < 0 || r.cur.Index < low) {
				low = r.cur.Index
			}
		}
		if low < 0 {
			return nil
		}
		rec := results.Recording{}
		for _, r := range rs {
			for r.cur != nil && r.cur.Index == low {
				rec.Merge(r.cur.Ops)
				if err := r.next(); err != nil {
					return err
				}
			}
		}
		if err := add(low, rec); err != nil {
			return err
		}
	}
}
