package sweep

import "benchbed/plan"

// labState is what the hosts run between cells, as the cell steps left it;
// the next cell and the backup step's undo read it. Only the cell steps
// change it, through these methods.
type labState struct {
	// touched: a cell began changing the hosts (ring ports, confs,
	// restarts). Until then the restore puts the originals back and
	// restarts nothing.
	touched bool
	// settled: every server runs the confs and rings now on its host (no
	// cell is between changing files and restarting, and this is no
	// resume, whose killed attempt may have stopped in between); the
	// restore then restarts only what it changes.
	settled bool
	// configured is the variant whose rings and confs the hosts hold, as
	// the last cell's ring, conf and restart steps left them; nil while a
	// cell changes them or after one of those steps failed. A cell whose
	// previous cell left the hosts configured skips the checks the
	// schedule marks unchanged.
	configured *plan.Variant
}

// begin: a cell starts, and may change the hosts.
func (l *labState) begin() { l.touched = true }

// changing: a ring or conf step changes files under the servers.
func (l *labState) changing() { l.settled, l.configured = false, nil }

// restarting: the restart step begins.
func (l *labState) restarting() { l.configured = nil }

// restarted: the restart step ended with err; on success the servers run
// the files on their hosts (settled, unless this sweep resumes another) and
// the hosts hold variant v.
func (l *labState) restarted(v *plan.Variant, err error, resume bool) {
	l.settled = err == nil && !resume
	if err == nil {
		l.configured = v
	}
}

// holds reports whether the hosts hold variant v as the last cell's steps
// left them.
func (l *labState) holds(v *plan.Variant) bool { return v != nil && l.configured == v }
