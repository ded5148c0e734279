package sweep

import (
	"benchbed/internal/custody"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"benchbed/internal/agents"
	"benchbed/internal/step"
	"benchbed/plan"
	"benchbed/plan/schedule"
	"benchbed/remote"
	"benchbed/results"
	"benchbed/results/rundir"
)

// Options tune a sweep.
type Options struct {
	Log           io.Writer       // progress lines and the live req/s line (nil = none)
	RunsDir       string          // root of the run directories ("" = the testbed's sweep.runs_dir)
	Resume        string          // a run id or directory to continue ("" = a new run)
	Only          []string        // variant names to run (nil = all)
	BreakLock     bool            // remove another sweep's locks
	OnFailure     string          // "continue" or "stop" ("" = the testbed's)
	HealthTimeout time.Duration   // per cell, for every server to answer (0 = custody.DefaultHealthTimeout)
	Agents        agents.Hosts    // nil = PoolAgents over the pool
	Observer      agents.Observer // told each load phase, merged agent event and telemetry sample (nil = none)
}

// Sweeper runs one sweep of a testbed's matrix: its run-wide steps, in the
// schedule's order, on a step.Runner whose undo stack unwinds when the sweep
// ends, fails or is interrupted; the cells step runs each cell's steps on a
// runner of its own. Its fields are what the whole run shares.
type Sweeper struct {
	inputs
	steps *step.Runner // the run-wide steps' journal and undo stack

	// made is what the run-wide steps return, each kept by its line in
	// pipeline.go (into): empty until that step has run.
	made struct {
		rendered               // render: every variant's rendering, the ring files
		backup   rundir.Backup // backup: the originals per host, for its undo
	}
	locks    *custody.Locks  // the lock step's protocol, released by its undo
	lab      labState        // what the hosts run, as the cell steps left them
	gen      genericState    // the generic services' confs and what the restore needs
	finished map[string]bool // cells kept from an earlier attempt
	cells    []cellResult    // every cell run or kept, in order (the cells step's)
	failed   int             // cells that failed
	// scriptProbe (a test's seam; nil outside tests) turns each search probe's
	// measured outcome into the one judged, so no machine's speed decides.
	scriptProbe func(rate float64, measured results.ProbeOutcome) results.ProbeOutcome
}

// inputs are what every step of the sweep reads and none writes: the
// testbed (from the render step on, the one that also masks the cluster's
// secrets: what render returns, kept by keepRendered), the hosts, the
// options and the run directory. A cell gets a copy as it begins.
type inputs struct {
	tb   *plan.Testbed
	p    *remote.Pool
	opts Options
	run  *rundir.Run
}

// NewSweeper prepares a sweep of tb over p and creates (or, with
// opts.Resume, opens) its run directory.
func NewSweeper(tb *plan.Testbed, p *remote.Pool, opts Options) (*Sweeper, error) {
	if opts.RunsDir == "" {
		opts.RunsDir = tb.Sweep.RunsDir
	}
	if opts.OnFailure == "" {
		opts.OnFailure = tb.Sweep.OnFailure
	}
	if opts.HealthTimeout <= 0 {
		opts.HealthTimeout = custody.DefaultHealthTimeout
	}
	if opts.Agents == nil {
		opts.Agents = agents.PoolAgents{Pool: p}
	}
	if err := tb.CheckOnly(opts.Only); err != nil {
		return nil, err
	}
	s := &Sweeper{inputs: inputs{tb: tb, p: p, opts: opts}, finished: map[string]bool{}, lab: labState{settled: opts.Resume == ""},
		gen: genericState{cmd: map[string]string{}, before: map[string]bool{}}}
	if err := s.openRun(); err != nil {
		return nil, err
	}
	return s, nil
}

// Run is the run directory.
func (s *Sweeper) Run() *rundir.Run { return s.run }

// Sweep runs the run-wide steps, then their undos under cleanupCtx (a
// first interrupt cancels ctx; cancelling cleanupCtx too abandons the
// undos: Left says what remains). It returns the summary of every cell run or
// kept, and an error when a step or a cell failed or ctx was cancelled.
func (s *Sweeper) Sweep(ctx, cleanupCtx context.Context) (*results.Summary, error) {
	defer s.closeJournal()
	err := s.steps.Run(ctx, s.wideSteps())
	if cerr := s.steps.Unwind(cleanupCtx); cerr != nil {
		err = errors.Join(err, cerr)
	}
	sum, serr := s.writeSummary()
	if err == nil && s.failed > 0 {
		err = fmt.Errorf("%d cell(s) failed; see %s", s.failed, s.run.Dir)
	}
	return sum, errors.Join(err, serr)
}

// Mask hides secrets in text: the testbed's, and those the sweep learnt
// from the cluster (swift.conf's hash path prefix and suffix).
func (s *Sweeper) Mask(text string) string { return s.tb.Mask(text) }

func (s *Sweeper) logf(format string, a ...any) {
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "sweep: %s\n", s.tb.Mask(fmt.Sprintf(format, a...)))
	}
}

// Left says what a sweep leaves undone: the undos that failed (a host
// lost) and those not run yet (a sweep abandoned), and how to finish them.
func (s *Sweeper) Left() []string {
	failed, pending := s.steps.Left()
	var out []string
	for _, name := range failed {
		out = append(out, s.leftLine(name, true))
	}
	for _, name := range pending {
		out = append(out, s.leftLine(name, false))
	}
	return out
}

// leftLine says what the undo of step name leaves undone; failed: it ran and failed
// on some host (its error says which), rather than not running at all.
func (s *Sweeper) leftLine(name string, failed bool) string {
	some := ""
	if failed {
		some = " on the hosts named in the error above"
	}
	switch schedule.Kind(name) {
	case schedule.StepBackup:
		return "the original confs and rings are not restored" + some + ": once every host is reachable, run `benchbed restore " + s.run.Dir + "`"
	case schedule.StepLock:
		return "the sweep locks (" + custody.LockDir + ") are still held" + some + ": `benchbed restore " + s.run.Dir + "` releases them"
	}
	return "undo " + name
}
