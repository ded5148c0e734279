package results

import (
	"encoding/json"
	"io"
	"sync"
	"time"
)

// AgentEvent is one JSON line a load agent writes (and cells/<id>/agents/*.jsonl
// of a run directory holds): type "ready" (job accepted,
// with the agent's clock), "interval" (one interval's histograms),
// "progress" (running totals), "done" (the run is over) or "error".
type AgentEvent struct {
	Type     string    `json:"type"`
	Agent    string    `json:"agent,omitempty"`
	Clock    time.Time `json:"clock,omitzero"`
	Index    int       `json:"index,omitempty"` // interval number, from 0
	Start    time.Time `json:"start,omitzero"`
	End      time.Time `json:"end,omitzero"`
	Ops      Recording `json:"ops,omitempty"`
	Elapsed  float64   `json:"elapsed_s,omitempty"`
	Done     int64     `json:"done,omitempty"`   // successful operations so far
	Errors   int64     `json:"errors,omitempty"` // failed operations so far
	Duration float64   `json:"duration_s,omitempty"`
	Error    string    `json:"error,omitempty"`

	// Fill is an interval's creates by fill bucket (a fill run's).
	Fill FillRecording `json:"fill,omitempty"`
	// ClientCPU is, in a done event, the agent process's own CPU over its
	// run as a share of the cores it may use (load.CPUShare).
	ClientCPU *float64 `json:"client_cpu,omitempty"`
}

// LineWriter writes values as JSON lines, one at a time from any number of
// goroutines, and keeps the first error (later values are dropped).
type LineWriter struct {
	mu  sync.Mutex
	enc *json.Encoder
	err error
}

// NewLineWriter returns a LineWriter on w.
func NewLineWriter(w io.Writer) *LineWriter { return &LineWriter{enc: json.NewEncoder(w)} }

// Put writes v as one line.
func (w *LineWriter) Put(v any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = w.enc.Encode(v)
	}
}

// Err returns the first write error.
func (w *LineWriter) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}
