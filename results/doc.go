// Package results is the measurement model: latency histograms
// (Hist, Recording), the agents' event stream and its merge, a cell's
// figures (Cell, OpSummary, Summary: the shape of summary.json), the spread
// of repeats, the error-rate gate, the statistics of runs that stop by
// themselves (Steady, BatchMeans, Precision), SLOs and the capacity search
// engine (Search, its Probe injected), and the ssbench-style tables that
// `benchbed load`, the sweep and the report print (WriteTable,
// WriteRepeatTable). It sits below load, which records into it; the run
// directory, the comparison and the report are its subpackages.
package results
