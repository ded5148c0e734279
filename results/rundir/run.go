package rundir

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Run is one run directory: runs/<testbed>/<UTC time>-<id>/. Everything a
// sweep keeps (the testbed as used, host environments, the journal, per
// cell the rendered confs and histograms, summary.json) lives below it.
type Run struct {
	Dir     string    // the run's directory
	ID      string    // "<UTC time>-<id>", the directory's base name
	Testbed string    // the testbed's name
	Started time.Time // when the run was created (UTC)
}

// runTimeLayout is the UTC time that starts a run id; it sorts as text.
const runTimeLayout = "20060102T150405Z"

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._=,+-]+`)

// SafeName turns s into one path element: runs of other characters become
// "_", and "", "." and ".." become "_".
func SafeName(s string) string {
	s = unsafeName.ReplaceAllString(s, "_")
	if s == "" || s == "." || s == ".." {
		return "_"
	}
	return s
}

// TestbedDir is the directory of testbed's runs under root.
func TestbedDir(root, testbed string) string { return filepath.Join(root, SafeName(testbed)) }

// NewRun creates a fresh run directory under root for testbed.
func NewRun(root, testbed string, now time.Time) (*Run, error) {
	var b [3]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	now = now.UTC()
	id := now.Format(runTimeLayout) + "-" + hex.EncodeToString(b[:])
	dir := filepath.Join(TestbedDir(root, testbed), id)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("run directory: %w", err)
	}
	return &Run{Dir: dir, ID: id, Testbed: testbed, Started: now}, nil
}

// Open opens the existing run directory dir of testbed ("" when unknown).
func Open(dir, testbed string) (*Run, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("run %s: not a directory", dir)
	}
	id := filepath.Base(dir)
	r := &Run{Dir: dir, ID: id, Testbed: testbed}
	if len(id) >= len(runTimeLayout) {
		if t, err := time.Parse(runTimeLayout, id[:len(runTimeLayout)]); err == nil {
			r.Started = t
		}
	}
	return r, nil
}

// Path returns the path of rel inside the run; rel must stay inside it.
func (r *Run) Path(rel ...string) (string, error) {
	p := filepath.Join(append([]string{r.Dir}, rel...)...)
	if p != r.Dir && !strings.HasPrefix(p, r.Dir+string(os.PathSeparator)) {
		return "", fmt.Errorf("run: %q leaves the run directory", filepath.Join(rel...))
	}
	return p, nil
}

// CellDir returns (and creates) the directory of the cell with id cellID.
func (r *Run) CellDir(cellID string) (string, error) {
	p, err := r.Path(CellsDir, SafeName(cellID))
	if err != nil {
		return "", err
	}
	return p, os.MkdirAll(p, 0o750)
}

// WriteFile writes data to rel inside the run atomically: a temporary file
// in the same directory, fsync, rename.
func (r *Run) WriteFile(rel string, data []byte) error {
	p, err := r.Path(rel)
	if err != nil {
		return err
	}
	return WriteFileAtomic(p, data, 0o640)
}

// WriteFileAtomic writes data to path through a temporary file, fsync and
// rename, so that a reader sees the old content or the new, never a part.
func WriteFileAtomic(path string, data []byte, mode os.FileMode) (err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		_ = f.Close()
		return err
	}
	if err = f.Chmod(mode); err != nil {
		_ = f.Close()
		return err
	}
	if err = f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
