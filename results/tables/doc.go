// Package tables prints cells' figures as ssbench-style tables: one row
// per cell or operation (WriteTable), or per (variant, workload) over its
// repeats (WriteRepeatTable). `benchbed load`, the sweep (orchestrate)
// and report all print them, so they live apart from each: inside report
// the sweep would have to import the report, and in results they would
// sit with the measurement model that load builds on.
package tables
