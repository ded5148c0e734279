// Package sweep runs a testbed's matrix: it locks and backs up the hosts
// (through internal/restore), runs every cell's steps, and restores the lab,
// journaling each step in the run directory.
package sweep
