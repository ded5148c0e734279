package report

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"

	"benchbed/load"
	"benchbed/results"
)

// AgentsDir is where a cell's directory keeps its agents' streams.
const AgentsDir = "agents"

// ErrNoStreams says that a cell has no agents' streams to read.
var ErrNoStreams = errors.New("no agents' streams")

// CellRecording merges the agents' streams of cell c
// (cells/<id>/agents/*.jsonl) into one recording. It returns
// ErrNoStreams (wrapped, naming the directory) when there are none, and
// with the recording of what could be read an error naming each stream
// that is broken or did not end with the agent's "done".
func (r *Report) CellRecording(c results.Cell) (results.Recording, error) {
	dir := r.Run.CellDir(&c)
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
		if err := mergeFile(rec, p); err != nil {
			errs = append(errs, err)
		}
	}
	return rec, errors.Join(errs...)
}

// mergeFile adds one agent's stream to rec.
func mergeFile(rec results.Recording, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	m := load.MergeStreams([]io.Reader{f}, nil)
	rec.Merge(m.Recording)
	if m.Err != nil {
		return fmt.Errorf("%s: %w", path, m.Err)
	}
	return nil
}

// SpectrumPoint is one point of a latency percentile spectrum: the
// quantile Q and the latency there, in seconds.
type SpectrumPoint struct {
	Q       float64
	Seconds float64
}

// spectrumSteps is the number of points per decade of 1/(1-q).
const spectrumSteps = 10

// maxInverse bounds 1/(1-q): the 99.9999th percentile.
const maxInverse = 1e6

// FirstByteSpectrum returns the first-byte latency of every operation
// type of rec at quantiles spread evenly on a log scale of 1/(1-q), from
// the median up to the point where one value in the histogram remains
// (beyond, every quantile is the maximum), and the maximum itself.
// It returns nothing for an empty recording.
func FirstByteSpectrum(rec results.Recording) []SpectrumPoint {
	h := results.NewHist()
	for _, op := range rec {
		h.Merge(op.FirstByte)
	}
	n := h.Count()
	if n == 0 {
		return nil
	}
	top := min(float64(n), maxInverse)
	var out []SpectrumPoint
	for k := spectrumSteps * math.Log10(2); ; k++ {
		inv := math.Pow(10, k/spectrumSteps)
		if inv > top {
			break
		}
		q := 1 - 1/inv
		out = append(out, SpectrumPoint{Q: q, Seconds: h.Quantile(q).Seconds()})
	}
	q := 1 - 1/top
	if len(out) == 0 || out[len(out)-1].Q < q {
		out = append(out, SpectrumPoint{Q: q, Seconds: h.Quantile(1).Seconds()})
	}
	return out
}
