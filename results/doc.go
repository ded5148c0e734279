// Package results is the measurement model: latency histograms
// (Hist, Recording), the agents' event stream and its merge, a cell's
// figures (Cell, OpSummary, Summary: the shape of summary.json), the spread
// of repeats, the error-rate gate, and the ssbench-style tables that
// `benchbed load`, the sweep and the report print (WriteTable,
// WriteRepeatTable). It sits below load, which records into it; the run
// directory, the comparison and the report are its subpackages.
package results
