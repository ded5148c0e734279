package rundir

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Journal statuses.
const (
	StepStarted = "started" // the step began; no outcome yet
	StepOK      = "ok"      // the step finished
	StepFailed  = "failed"  // the step failed; Detail says why
	StepSkipped = "skipped" // the step had nothing to do
	// StepUnfinished is no status of the journal's own: PairSteps gives it
	// to a step that started and never ended (the run was killed).
	StepUnfinished = "unfinished"
)

// Entry is one line of a run's journal.
type Entry struct {
	Time   time.Time         `json:"time"`
	Step   string            `json:"step"`             // e.g. "push-conf", "ring-ports", "run"
	Cell   string            `json:"cell,omitempty"`   // the cell id, "" for run-wide steps
	Host   string            `json:"host,omitempty"`   // "" for steps not tied to a host
	Status string            `json:"status"`           // StepStarted, StepOK, StepFailed, StepSkipped
	Detail string            `json:"detail,omitempty"` // free text; never a secret
	Data   map[string]string `json:"data,omitempty"`   // what a resume or restore needs
}

// Journal appends entries to a run's journal.jsonl, one JSON object a line,
// synced after each so that an interrupted sweep can be resumed from it.
type Journal struct {
	mu  sync.Mutex
	f   *os.File
	now func() time.Time
}

// OpenJournal opens (creating or appending to) the run's journal.
func (r *Run) OpenJournal() (*Journal, error) {
	p, err := r.Path(JournalFile)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o640)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return &Journal{f: f, now: time.Now}, nil
}

// Add appends e, stamping its time when unset, and syncs the file.
func (j *Journal) Add(e Entry) error {
	if e.Step == "" || e.Status == "" {
		return errors.New("journal: an entry needs a step and a status")
	}
	if e.Time.IsZero() {
		e.Time = j.now().UTC()
	}
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if _, err := j.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return j.f.Sync()
}

// Close closes the journal file.
func (j *Journal) Close() error { return j.f.Close() }

// ReadJournal reads every entry of the run's journal in order. A torn last
// line (a crash mid-write) is ignored; a torn line elsewhere is an error.
func (r *Run) ReadJournal() ([]Entry, error) {
	p, err := r.Path(JournalFile)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readEntries(f, p)
}

func readEntries(rd io.Reader, name string) ([]Entry, error) {
	var out []Entry
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	line, bad := 0, 0
	for sc.Scan() {
		line++
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			if bad == 0 {
				bad = line
			}
			continue
		}
		if bad != 0 {
			return nil, fmt.Errorf("%s:%d: unreadable journal line", name, bad)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// Finished returns the cells whose "run" step (or "search" step, a
// capacity search's) ended ok, by cell id: what a resumed sweep keeps.
func Finished(entries []Entry) map[string]bool {
	done := map[string]bool{}
	for _, e := range entries {
		measured := e.Step == "run" || e.Step == "search"
		if measured && e.Cell != "" && e.Status == StepOK {
			done[e.Cell] = true
		}
	}
	return done
}
