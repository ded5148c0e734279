// Package results is the measurement model: latency histograms
// (Hist, Recording), a cell's figures (Cell, OpSummary, Summary: the
// shape of summary.json), the spread of repeats, the error-rate gate, and
// the statistics of runs that stop by themselves (Steady, BatchMeans,
// Precision), SLOs and the capacity search engine (Search, its Probe
// injected).
// It sits below load, which records into it; the run directory that keeps
// these figures is package rundir's, the tables package tables', and the
// comparison of two runs package compare's.
package results
