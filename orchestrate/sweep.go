package orchestrate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/plan/schedule"
	"benchbed/remote"
	"benchbed/results"
	"benchbed/results/rundir"
)

// SweepOptions tune a sweep.
type SweepOptions struct {
	Log           io.Writer     // progress lines and the live req/s line (nil = none)
	RunsDir       string        // root of the run directories ("" = the testbed's sweep.runs_dir)
	Resume        string        // a run id or directory to continue ("" = a new run)
	Only          []string      // variant names to run (nil = all)
	BreakLock     bool          // remove another sweep's locks
	OnFailure     string        // "continue" or "stop" ("" = the testbed's)
	HealthTimeout time.Duration // per cell, for every server to answer (0 = 120 s)
	Agents        agentHosts    // nil = PoolAgents over the pool
}

// Sweeper runs one sweep of a testbed's matrix. Its steps run in order;
// each step that changes something registers a cleanup first, and the
// cleanups run in reverse when the sweep ends, fails or is interrupted.
type Sweeper struct {
	tb   *plan.Testbed
	p    *remote.Pool
	opts SweepOptions
	run  *rundir.Run
	j    *rundir.Journal

	rend   map[string]*render.Rendering // by variant name
	base   *render.Rendering            // the first variant's: what restore restarts
	backup rundir.Backup
	// notRestored are the hosts whose originals the restore could not put
	// back: they keep the sweep's lock.
	notRestored []string
	touched     bool // a cell began changing the hosts (ring ports, confs, restarts)
	// settled: every server runs the confs and rings now on its host (no
	// cell is between changing files and restarting, and this is no
	// resume, whose killed attempt may have stopped in between); the
	// restore then restarts only what it changes.
	settled  bool
	finished map[string]bool // cells kept from an earlier attempt
	// configured is the variant whose rings and confs the hosts hold, as
	// the last cell's ring, conf and restart steps left them; nil while a
	// cell changes them or after one of those steps failed.
	configured *plan.Variant
	cells      []cellResult
	gen        genericState // the generic services' confs and what the restore needs
	// tele is the running cell's telemetry agents (nil: none); dropped
	// says that its object hosts' caches were dropped before its run.
	tele    *telemetryAgents
	dropped bool

	mu       sync.Mutex
	cleanups []cleanup // a stack: the last pushed runs first
	undone   []string  // cleanups that ran and failed, in the order they ran
	failed   int       // cells that failed
}

// cleanup undoes a step.
type cleanup struct {
	name string
	fn   func(context.Context) error
}

// sweepStep is one run-wide step.
type sweepStep struct {
	name    string
	run     func(context.Context) error
	cleanup func(context.Context) error // nil = nothing to undo
}

// NewSweeper prepares a sweep of tb over p and creates (or, with
// opts.Resume, opens) its run directory.
func NewSweeper(tb *plan.Testbed, p *remote.Pool, opts SweepOptions) (*Sweeper, error) {
	if opts.RunsDir == "" {
		opts.RunsDir = tb.Sweep.RunsDir
	}
	if opts.OnFailure == "" {
		opts.OnFailure = tb.Sweep.OnFailure
	}
	if opts.HealthTimeout <= 0 {
		opts.HealthTimeout = 120 * time.Second
	}
	if opts.Agents == nil {
		opts.Agents = PoolAgents{Pool: p}
	}
	for _, v := range opts.Only {
		if tb.Variant(v) == nil {
			return nil, fmt.Errorf("--only %s: %s has no such variant", v, tb.File)
		}
	}
	s := &Sweeper{tb: tb, p: p, opts: opts, finished: map[string]bool{}, settled: opts.Resume == ""}
	if err := s.openRun(); err != nil {
		return nil, err
	}
	return s, nil
}

// Run is the run directory.
func (s *Sweeper) Run() *rundir.Run { return s.run }

// Sweep runs the steps, then the cleanups under cleanupCtx (a first
// interrupt cancels ctx; cancelling cleanupCtx too abandons the cleanups:
// Left says what remains). It returns the summary of every cell run or
// kept, and an error when a step or a cell failed or ctx was cancelled.
func (s *Sweeper) Sweep(ctx, cleanupCtx context.Context) (*results.Summary, error) {
	defer s.j.Close()
	var steps []sweepStep
	wide := s.wideSteps()
	for _, kind := range append(schedule.Kinds(schedule.Before(s.tb)), stepCells) {
		steps = append(steps, wide[kind])
	}
	var err error
	for _, st := range steps {
		if st.run == nil {
			err = fmt.Errorf("the schedule has a run-wide step %q that the sweep cannot run", st.name)
			break
		}
		if st.cleanup != nil {
			s.push(st.name, st.cleanup)
		}
		if err = s.step(ctx, st.name, "", "", st.run); err != nil {
			break
		}
	}
	if cerr := s.unwind(cleanupCtx); cerr != nil {
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

// stepCells is the run-wide step that runs the cells (each cell's steps
// are journaled with its id).
const stepCells = "cells"

// wideSteps are the run-wide steps by kind; the schedule's Before says
// which run, in which order. The cleanups' journal names are "undo-" and
// the step's name: schedule.StepUndoLock and StepUndoBackup.
func (s *Sweeper) wideSteps() map[string]sweepStep {
	m := map[string]sweepStep{}
	for _, st := range []sweepStep{
		{schedule.StepPreflight, s.preflight, nil},
		{schedule.StepPreconditions, s.preconditions, nil},
		{schedule.StepLock, s.lock, s.unlock},
		{schedule.StepEnvironment, s.captureEnv, nil},
		{schedule.StepRender, s.prepare, nil},
		{schedule.StepBackup, s.takeBackup, s.restoreAll},
		{schedule.StepPrefill, s.prefill, nil},
		{stepCells, s.runCells, nil},
	} {
		m[st.name] = st
	}
	return m
}

// step journals fn's start and outcome.
func (s *Sweeper) step(ctx context.Context, name, cell, host string, fn func(context.Context) error) error {
	s.journal(rundir.Entry{Step: name, Cell: cell, Host: host, Status: rundir.StepStarted})
	start := time.Now()
	err := fn(ctx)
	e := rundir.Entry{Step: name, Cell: cell, Host: host, Status: rundir.StepOK,
		Detail: fmt.Sprintf("%.1f s", time.Since(start).Seconds())}
	if err != nil {
		e.Status, e.Detail = rundir.StepFailed, s.tb.Mask(err.Error())
	}
	s.journal(e)
	return err
}

// journal adds e; a journal that cannot be written is reported, not fatal.
func (s *Sweeper) journal(e rundir.Entry) {
	if err := s.j.Add(e); err != nil {
		s.logf("warning: %v", err)
	}
}

func (s *Sweeper) logf(format string, a ...any) {
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "sweep: %s\n", s.tb.Mask(fmt.Sprintf(format, a...)))
	}
}

func (s *Sweeper) push(name string, fn func(context.Context) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cleanups = append(s.cleanups, cleanup{name: name, fn: fn})
}

// unwind runs the cleanups, last first; each one runs even when an earlier
// one failed.
func (s *Sweeper) unwind(ctx context.Context) error {
	var errs []error
	for {
		s.mu.Lock()
		n := len(s.cleanups)
		if n == 0 {
			s.mu.Unlock()
			return errors.Join(errs...)
		}
		c := s.cleanups[n-1]
		s.mu.Unlock()
		err := s.step(ctx, "undo-"+c.name, "", "", c.fn)
		s.mu.Lock()
		s.cleanups = s.cleanups[:n-1]
		s.mu.Unlock()
		if err != nil {
			errs = append(errs, fmt.Errorf("undo %s: %w", c.name, err))
			s.mu.Lock()
			s.undone = append(s.undone, c.name)
			s.mu.Unlock()
		}
	}
}

// Left says what a sweep leaves undone: the cleanups that failed (a host
// lost) and those not run yet (a sweep abandoned), and how to finish them.
func (s *Sweeper) Left() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, name := range s.undone {
		out = append(out, s.leftLine(name, true))
	}
	for i := len(s.cleanups) - 1; i >= 0; i-- {
		out = append(out, s.leftLine(s.cleanups[i].name, false))
	}
	return out
}

// leftLine says what cleanup name leaves undone; failed: it ran and failed
// on some host (its error says which), rather than not running at all.
func (s *Sweeper) leftLine(name string, failed bool) string {
	some := ""
	if failed {
		some = " on the hosts named in the error above"
	}
	switch name {
	case "backup":
		return "the original confs and rings are not restored" + some + ": once every host is reachable, run `benchbed restore " + s.run.Dir + "`"
	case "lock":
		return "the sweep locks (" + LockDir + ") are still held" + some + ": `benchbed restore " + s.run.Dir + "` releases them"
	}
	return "undo " + name
}
