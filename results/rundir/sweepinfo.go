package rundir

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// SweepInfo is the run directory's sweep.json: what `benchbed restore RUN`
// needs to find the testbed again, and what names and dates a report.
type SweepInfo struct {
	Testbed string    `json:"testbed"` // the testbed file's absolute path
	Name    string    `json:"name"`    // the testbed's name
	Started time.Time `json:"started"`
	// Files are the testbed's files as read (the testbed file, then those
	// it includes, in reading order, as given); testbed.hcl holds them
	// all, inlined. Absent in runs of before testbeds of several files.
	Files []string `json:"files,omitempty"`
}

// WriteSweepInfo writes the run's sweep.json.
func (r *Run) WriteSweepInfo(si SweepInfo) error {
	return r.WriteJSON(SweepFile, si)
}

// ReadSweepInfo reads the sweep.json of the run in dir.
func ReadSweepInfo(dir string) (*SweepInfo, error) {
	p := filepath.Join(dir, SweepFile)
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("%s: not a sweep's run directory: %w", dir, err)
	}
	var si SweepInfo
	if err := json.Unmarshal(b, &si); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return &si, nil
}

// WriteJSON writes v, indented, to rel inside the run, atomically.
func (r *Run) WriteJSON(rel string, v any) error {
	p, err := r.Path(rel)
	if err != nil {
		return err
	}
	return WriteJSONFile(p, v)
}

// WriteJSONFile writes v, indented and ending in a newline, to path,
// atomically.
func WriteJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, append(b, '\n'), 0o640)
}
