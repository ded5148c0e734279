// Package results is the measurement model: latency histograms
// (Hist, Recording), a cell's figures (Cell, OpSummary, Summary: the
// shape of summary.json), the spread of repeats, and the error-rate gate.
// It sits below load, which records into it; the run directory that keeps
// these figures is package rundir's, the tables package tables', and the
// comparison of two runs package compare's.
package results
