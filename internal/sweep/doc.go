// Package sweep runs a testbed's matrix: it locks and backs up the hosts,
// runs every cell's steps, and restores the lab, journaling each step in the
// run directory; RestoreRun is `benchbed restore` for a run left unrestored.
package sweep
