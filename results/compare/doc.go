// Package compare sets two runs, or two cells, side by side: the deltas of
// their figures and telemetry, with Mann-Whitney U tests over repeats, and
// the diffs of their confs, ring layouts, testbeds and hosts' environments,
// for `benchbed compare`.
package compare
