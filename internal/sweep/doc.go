// Package sweep runs a testbed's matrix: it locks and backs up the hosts
// (through internal/custody), runs every cell's steps, and restores the lab,
// journaling each step in the run directory.
package sweep
