package rundir

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Original is one file a sweep may change, and its original's checksum.
type Original struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256,omitempty"` // "" when Absent
	Absent bool   `json:"absent,omitempty"` // the file did not exist
}

// Backup is what a sweep saved before its first change: per host the
// originals of every file it may change. It lives in the run directory as
// backup.json (paths and checksums only; the copies stay on the hosts).
type Backup map[string][]Original

// WriteBackup writes the run's backup.json.
func (r *Run) WriteBackup(b Backup) error {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return r.WriteFile(BackupFile, data)
}

// ReadBackup reads the run's backup.json; nil when the run took none.
func (r *Run) ReadBackup() (Backup, error) {
	p, err := r.Path(BackupFile)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var b Backup
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return b, nil
}
