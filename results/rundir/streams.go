package rundir

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"benchbed/results"
)

// ErrNoStreams says that a cell has no agents' streams to read.
var ErrNoStreams = errors.New("no agents' streams")

// ReadStreams merges the agents' streams of cell c
// (cells/<id>/agents/*.jsonl) into one recording. It returns ErrNoStreams
// (wrapped, naming the directory) when there are none, and with the
// recording of what could be read an error naming each stream that is
// broken or did not end with the agent's "done".
func (r *RunResults) ReadStreams(c *results.Cell) (results.Recording, error) {
	dir := r.CellDir(c)
	if dir == "" {
		return nil, fmt.Errorf("no id in the summary, so no cell directory: %w", ErrNoStreams)
	}
	dir = filepath.Join(dir, AgentsDir)
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: %w", dir, ErrNoStreams)
	}
	sort.Strings(files)
	rec := results.Recording{}
	var errs []error
	for _, p := range files {
		if err := mergeStream(rec, p); err != nil {
			errs = append(errs, err)
		}
	}
	return rec, errors.Join(errs...)
}

// mergeStream adds one agent's stream to rec.
func mergeStream(rec results.Recording, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	m := results.MergeStreams([]io.Reader{f}, nil)
	rec.Merge(m.Recording)
	if m.Err != nil {
		return fmt.Errorf("%s: %w", path, m.Err)
	}
	return nil
}

// ReadIntervals hands add cell c's agents' interval events index by
// index in order, each index's recordings merged over the agents: memory
// holds one interval per agent, whatever the run's length. It returns
// ErrNoStreams (wrapped) when the cell has none.
func (r *RunResults) ReadIntervals(c *results.Cell, add func(index int, rec results.Recording) error) error {
	dir := r.CellDir(c)
	if dir == "" {
		return fmt.Errorf("no id in the summary, so no cell directory: %w", ErrNoStreams)
	}
	files, err := filepath.Glob(filepath.Join(dir, AgentsDir, "*.jsonl"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("%s: %w", filepath.Join(dir, AgentsDir), ErrNoStreams)
	}
	sort.Strings(files)
	return mergeIntervals(files, add)
}

// AgentHosts returns the hosts that ran cell c's load agents, from its
// streams' names (agent-<n>-<host>.jsonl), each once in name order; none
// without streams.
func (r *RunResults) AgentHosts(c *results.Cell) []string {
	dir := r.CellDir(c)
	if dir == "" {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(dir, AgentsDir, "agent-*-*.jsonl"))
	var out []string
	for _, f := range files {
		_, host, ok := strings.Cut(strings.TrimPrefix(strings.TrimSuffix(filepath.Base(f), ".jsonl"), "agent-"), "-")
		if ok && host != "" && !slices.Contains(out, host) {
			out = append(out, host)
		}
	}
	slices.Sort(out)
	return out
}
