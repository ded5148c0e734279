// Package faults holds the mechanisms of a variant's fault blocks
// (plan.Fault): for each kind, on each target host, the shell scripts that
// probe whether the host can apply it, apply it, undo it and check that it
// is undone. The scripts are plain POSIX sh, every value in them quoted
// with remote.Quote; the sweep runs them through remote at the fault's
// times (internal/sweep, sweep_fault.go) and `benchbed restore` (internal/custody) undoes
// what a killed sweep left (restore_fault.go). Applying never
// starts before the undo is known: Build returns all four at once, and
// every undo is safe to run twice and on a host where the fault was never
// applied, so that a restore after a killed sweep can run it blindly and
// then the check.
//
// State a fault keeps on its host (the original mount, a pid's cgroup)
// lives in StateDir, one file per fault id.
package faults
