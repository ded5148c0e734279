package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"benchbed/load"
	"benchbed/results"
	"benchbed/rundir"
)

// agentHists merges the histograms of a cell's agent streams
// (cells/<id>/agents/*.jsonl), for compare's pooled repeats.
func agentHists(r *rundir.RunResults, c *results.Cell) (results.Recording, error) {
	dir := r.CellDir(c)
	if dir == "" {
		return nil, errors.New("the cell has no id")
	}
	paths, err := filepath.Glob(filepath.Join(dir, "agents", "*.jsonl"))
	if err != nil || len(paths) == 0 {
		return nil, fmt.Errorf("%s: no agent streams", filepath.Join(dir, "agents"))
	}
	var readers []io.Reader
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		readers = append(readers, f)
	}
	m := load.MergeStreams(readers, nil)
	if m.Err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "agents"), m.Err)
	}
	return m.Recording, nil
}
