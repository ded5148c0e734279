package schedule

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"benchbed/plan"
	"benchbed/plan/render"
	"benchbed/templates/secrets"
)

// Kind is a kind of Step: the name the sweep journals (journal.jsonl's
// "step", docs/results.md), so that what `benchbed plan` prints is what
// runs. The sweep implements each kind it may be given (RunWide, PerCell)
// in one list (internal/sweep's pipeline.go), and a unit test there fails
// for a kind without an implementation.
type Kind string

// The kinds of Step.
const (
	// Run-wide, before the cells (Schedule.Before), in this order.
	StepPreflight     Kind = "preflight"     // every host reachable, its host key known, the commands there
	StepPreconditions Kind = "preconditions" // list a workload's initial objects, no PUT, before any lock or change
	StepLock          Kind = "lock"          // take the sweep lock on every host
	StepEnvironment   Kind = "environment"   // record each host's kernel, CPU, memory, disks, Swift version
	StepRender        Kind = "render"        // render every variant's confs here (swift.conf's hashes read), make its ring files on the builder host (its files only read)
	StepBackup        Kind = "backup"        // copy the files the sweep may change on every host
	StepPrefill       Kind = "prefill"       // create the workloads' initial objects (once)
	// StepCells runs the cells, journaled around them (each cell's steps
	// journaled with its id): the sweep's last step before the undos, no
	// cost of its own and no line of the plan.
	StepCells Kind = "cells"

	// Per cell (CellPlan.Steps), in this order.
	StepRecord    Kind = "record"     // keep the cell's confs and ring ports in the run directory
	StepRingPorts Kind = "ring-ports" // switch a ring between one port per host and one per disk
	StepPushConf  Kind = "push-conf"  // write a service's conf on its hosts where it differs
	StepRestart   Kind = "restart"    // restart a service on its hosts
	StepReload    Kind = "reload"     // reload a service's servers in place on its hosts (Reloads)
	StepHealth    Kind = "health"     // wait until every server answers
	StepServices  Kind = "services"   // generic services: push their confs, restart what changed, after_start, health
	// StepTelemetryStart starts a telemetry agent on every host (telemetry { enabled }).
	StepTelemetryStart Kind = "telemetry-start"
	StepWarmup         Kind = "warmup"      // unmeasured load before the run
	StepDropCaches     Kind = "drop-caches" // empty the object hosts' page caches (telemetry { drop_caches })
	StepRun            Kind = "run"         // the measured run
	// StepTelemetry stops the agents and summarises the run's samples into the cell.
	StepTelemetry Kind = "telemetry"

	// After the cells (Schedule.Finally), in this order.
	StepUndoBackup Kind = "undo-backup" // put back the confs and rings found before the sweep
	StepUndoLock   Kind = "undo-lock"   // release the sweep locks
)

// RunWide are the kinds of the sweep's run-wide steps, in the order they
// run: Before's, then the cells. Every kind is implemented in the sweep's
// pipeline, in this order (a unit test there holds both).
var RunWide = []Kind{StepPreflight, StepPreconditions, StepLock, StepEnvironment, StepRender, StepBackup, StepPrefill, StepCells}

// PerCell are the kinds of a cell's steps (CellSteps), in the order they
// run; fault-apply and fault-undo come within the run, by their times.
var PerCell = []Kind{StepRecord, StepRingPorts, StepPushConf, StepRestart, StepReload, StepHealth, StepServices,
	StepFaultProbe, StepTelemetryStart, StepWarmup, StepDropCaches, StepRun, StepSearch, StepFaultApply, StepFaultUndo,
	StepFaultCheck, StepTelemetry}

// Step is one thing a sweep does, in order. A kind may come several times
// in a row (one push-conf per service); the sweep runs each kind once, for
// all of them. A Step with Unchanged set says that the kind has nothing
// to change in this cell: the sweep still checks the hosts.
type Step struct {
	Kind        Kind
	Hosts       []string            // where it happens
	Unchanged   bool                // ring-ports, push-conf, restart: nothing expected to change
	Service     string              // push-conf, restart
	Path        string              // push-conf: the conf's path on each host
	Changes     []Change            // push-conf: what differs from the previous cell (nil: every setting)
	Ring        string              // ring-ports
	PortPerDisk bool                // ring-ports: the layout switched to
	Ports       []render.PortChange // ring-ports: per host, the devices' old and new ports
	Workload    string              // preconditions, prefill, warmup, run
	Users       int                 // warmup, run
	Duration    time.Duration
	Agents      int // prefill, warmup, run: clients x agents per client
	// Fault, FaultIndex and At: fault-apply and fault-undo, the fault
	// (the variant's Faults[FaultIndex]) and when, counted from the
	// measured run's start.
	Fault      *plan.Fault
	FaultIndex int
	At         time.Duration
}

// Change is one setting that differs from the previous cell. Old or New is
// "" when the key is absent; sensitive values are secrets.Masked.
type Change struct {
	Section, Key, Old, New string
}

// CellPlan is a cell and its steps.
type CellPlan struct {
	Cell  plan.Cell
	Steps []Step
}

// Schedule is the ordered work of a sweep: the run-wide steps, per cell its
// steps, then the restore. It is computed from the model alone; nothing is
// contacted.
type Schedule struct {
	Testbed  *plan.Testbed
	Before   []Step // run-wide, before the first cell
	Cells    []CellPlan
	Rounds   []RoundCell // repeat = "auto"'s cells after Cells, each run only while undecided (New's)
	Finally  []Step      // after the last cell, also of a failed or interrupted sweep
	Estimate Estimate
}

// New computes the steps of every cell of tb's matrix (Of), then
// those of its rounds of repeat = "auto" (Rounds).
func New(tb *plan.Testbed) *Schedule {
	p := Of(tb, plan.Expand(tb))
	p.addRounds(DefaultCosts(tb))
	return p
}

// Of computes the steps of the given cells of tb, in order: the sweep's
// schedule of the cells it runs. The first cell pushes every conf and
// restarts every server (what runs on the hosts is not known) and sets
// every ring's port layout; later cells push and restart only the services
// whose settings differ from the previous cell's, and switch a ring only
// when its layout differs. Prefill runs once, before the first cell.
func Of(tb *plan.Testbed, cells []plan.Cell) *Schedule {
	p := &Schedule{Testbed: tb, Before: Before(tb), Finally: Finally(tb)}
	var prev *plan.Variant
	for _, c := range cells {
		p.Cells = append(p.Cells, CellSteps(tb, prev, c))
		prev = c.Variant
	}
	p.Estimate = estimate(p, DefaultCosts(tb))
	return p
}

// CellSteps returns the steps of cell c when the cell before it ran
// variant prev; nil prev: c is the first cell the sweep runs.
func CellSteps(tb *plan.Testbed, prev *plan.Variant, c plan.Cell) CellPlan {
	cp := CellPlan{Cell: c, Steps: []Step{{Kind: StepRecord}}}
	if len(tb.Services) > 0 { // Swift's servers; a testbed of generic services only has none
		cp.Steps = append(cp.Steps, configSteps(tb, prev, c.Variant, prev == nil)...)
		cp.Steps = append(cp.Steps, Step{Kind: StepHealth, Hosts: serviceHosts(tb)})
	}
	cp.Steps = append(cp.Steps, genericSteps(tb, prev, c.Variant, prev == nil)...)
	_, dur := plan.RunShape(c.Workload)
	probe, during := faultSteps(c.Variant, dur)
	cp.Steps = append(cp.Steps, probe...)
	cp.Steps = append(cp.Steps, runSteps(tb, c.Workload, during)...)
	return cp
}

// Finally returns the steps after the cells.
func Finally(tb *plan.Testbed) []Step {
	all := hostNames(tb.Hosts)
	return []Step{{Kind: StepUndoBackup, Hosts: all}, {Kind: StepUndoLock, Hosts: all}}
}

// Before returns the run-wide steps before the first cell.
func Before(tb *plan.Testbed) []Step {
	all := hostNames(tb.Hosts)
	out := []Step{{Kind: StepPreflight, Hosts: all}}
	checks := InitialChecks(tb)
	for _, w := range checks {
		out = append(out, Step{Kind: StepPreconditions, Hosts: w.Clients, Workload: w.Name})
	}
	if len(checks) == 0 {
		out = append(out, Step{Kind: StepPreconditions, Unchanged: true})
	}
	out = append(out, Step{Kind: StepLock, Hosts: all}, Step{Kind: StepEnvironment, Hosts: all},
		Step{Kind: StepRender}, Step{Kind: StepBackup, Hosts: backupHosts(tb)})
	if tb.Prefill == nil {
		return append(out, Step{Kind: StepPrefill, Unchanged: true})
	}
	return append(out, prefillSteps(tb)...)
}

// configSteps returns the ring-ports, push-conf and restart steps that
// take the lab from variant prev (nil: unknown state) to cur; a kind with
// nothing to change gets one Unchanged step.
func configSteps(tb *plan.Testbed, prev, cur *plan.Variant, first bool) []Step {
	var push, rings, restart []Step
	restarted := map[string]bool{}
	for _, s := range tb.Services {
		hosts := hostNames(tb.HostsWithRole(s.Role))
		changes := settingChanges(tb.Effective(s, prev), tb.Effective(s, cur))
		if !first && len(changes) == 0 {
			continue
		}
		if first {
			changes = nil // everything is written; the diff against the unknown lab is not known
		}
		push = append(push, Step{Kind: StepPushConf, Hosts: hosts, Service: s.Name, Path: s.Path, Changes: changes})
		restart = append(restart, Step{Kind: restartKind(s), Hosts: hosts, Service: s.Name})
		restarted[s.Name] = true
	}
	for _, r := range tb.Rings {
		was := prev != nil && prev.PortPerDisk(r.Name)
		now := cur.PortPerDisk(r.Name)
		if was == now && !first {
			continue
		}
		rings = append(rings, Step{Kind: StepRingPorts, Hosts: hostNames(tb.Hosts), Ring: r.Name, PortPerDisk: now,
			Ports: ringPortDiff(tb, prev, cur, r.Name)})
		// The ring's servers must listen on the new ports, and the proxies
		// load the new ring at once rather than within their reload_time.
		for _, s := range tb.Services {
			if (s.Role == r.Role || s.Role == plan.RoleProxy) && !restarted[s.Name] {
				restart = append(restart, Step{Kind: restartKind(s), Hosts: hostNames(tb.HostsWithRole(s.Role)), Service: s.Name})
				restarted[s.Name] = true
			}
		}
	}
	if len(tb.Rings) == 0 {
		return slices.Concat(orUnchanged(push, StepPushConf), restartSteps(tb, restart))
	}
	return slices.Concat(orUnchanged(rings, StepRingPorts), orUnchanged(push, StepPushConf), restartSteps(tb, restart))
}

// orUnchanged is steps, or one Unchanged step of kind when there is none.
func orUnchanged(steps []Step, kind Kind) []Step {
	if len(steps) == 0 {
		return []Step{{Kind: kind, Unchanged: true}}
	}
	return steps
}

// Kinds returns the distinct kinds of steps in order: what the sweep runs
// and journals for them.
func Kinds(steps []Step) []Kind {
	var out []Kind
	for _, s := range steps {
		if len(out) == 0 || out[len(out)-1] != s.Kind {
			out = append(out, s.Kind)
		}
	}
	return out
}

// ringPortDiff returns ring's port changes from variant prev (nil: one
// port per host everywhere, as setup builds rings) to cur.
func ringPortDiff(tb *plan.Testbed, prev, cur *plan.Variant, ring string) []render.PortChange {
	a, errA := tb.Layout(prev)
	b, errB := tb.Layout(cur)
	if errA != nil || errB != nil {
		return nil // Load reported the collision
	}
	var out []render.PortChange
	_, changes := render.DiffLayouts(a, b)
	for _, c := range changes {
		if c.Ring == ring {
			out = append(out, c)
		}
	}
	return out
}

// settingChanges lists the keys whose values differ between a and b, sorted.
func settingChanges(a, b plan.Settings) []Change {
	var out []Change
	show := func(sec, key string, s plan.Setting, ok bool) string {
		switch {
		case !ok:
			return ""
		case s.Sensitive || secrets.Key(sec, key):
			return secrets.Masked
		}
		return s.Value
	}
	secs := map[string]bool{}
	for s := range a {
		secs[s] = true
	}
	for s := range b {
		secs[s] = true
	}
	for sec := range secs {
		keys := map[string]bool{}
		for k := range a[sec] {
			keys[k] = true
		}
		for k := range b[sec] {
			keys[k] = true
		}
		for k := range keys {
			x, okA := a[sec][k]
			y, okB := b[sec][k]
			if okA != okB || x.Value != y.Value {
				out = append(out, Change{Section: sec, Key: k, Old: show(sec, k, x, okA), New: show(sec, k, y, okB)})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Section != out[j].Section {
			return out[i].Section < out[j].Section
		}
		return out[i].Key < out[j].Key
	})
	return out
}

// InitialChecks returns the workloads whose initial objects a sweep checks
// before any change: those whose scenario reads, updates or deletes them
// (scenario.Scenario.ReadsInitial) and that no prefill block creates.
func InitialChecks(tb *plan.Testbed) []*plan.Workload {
	var out []*plan.Workload
	for _, w := range tb.Workloads {
		if tb.Prefill != nil && (len(tb.Prefill.Workloads) == 0 || slices.Contains(tb.Prefill.Workloads, w.Name)) {
			continue
		}
		if plan.ReadsInitial(w) {
			out = append(out, w)
		}
	}
	return out
}

// prefillSteps returns one prefill step per workload to prefill.
func prefillSteps(tb *plan.Testbed) []Step {
	var out []Step
	for _, w := range tb.Workloads {
		if len(tb.Prefill.Workloads) > 0 && !slices.Contains(tb.Prefill.Workloads, w.Name) {
			continue
		}
		clients := tb.Prefill.Clients
		if len(clients) == 0 {
			clients = w.Clients
		}
		out = append(out, Step{Kind: StepPrefill, Hosts: clients, Workload: w.Name,
			Agents: len(clients) * tb.Prefill.AgentsPerClient})
	}
	return out
}

// runSteps returns the telemetry agents' start (when on), the warmup
// (when the sweep has one and w is no command workload), the caches' drop
// (when asked), the run, the fault steps during and after it, and the
// telemetry's summary.
func runSteps(tb *plan.Testbed, w *plan.Workload, faults []Step) []Step {
	users, dur := plan.RunShape(w)
	run := Step{Kind: StepRun, Hosts: w.Clients, Workload: w.Name, Users: users, Duration: dur,
		Agents: len(w.Clients) * w.AgentsPerClient}
	if w.IsCommand() {
		run = Step{Kind: StepRun, Hosts: w.Clients, Workload: w.Name, Users: w.Users}
	}
	var out []Step
	all := hostNames(tb.Hosts)
	if tb.Telemetry.Enabled {
		out = append(out, Step{Kind: StepTelemetryStart, Hosts: all, Duration: tb.Telemetry.Interval})
	}
	if warm := WarmupOf(tb, w); warm > 0 && !w.IsCommand() {
		ws := run
		ws.Kind, ws.Duration = StepWarmup, warm
		out = append(out, ws)
	}
	if tb.Telemetry.DropCaches {
		out = append(out, Step{Kind: StepDropCaches, Hosts: hostNames(tb.HostsWithRole(plan.RoleObject))})
	}
	out = append(out, autoRun(w, run))
	out = append(out, faults...)
	if tb.Telemetry.Enabled {
		out = append(out, Step{Kind: StepTelemetry, Hosts: all})
	}
	return out
}

// serviceHosts are the hosts that run a service of tb.
func serviceHosts(tb *plan.Testbed) []string {
	var out []string
	for _, h := range tb.Hosts {
		for _, s := range tb.Services {
			if h.HasRole(s.Role) {
				out = append(out, h.Name)
				break
			}
		}
	}
	return out
}

func hostNames(hs []*plan.Host) []string {
	out := make([]string, 0, len(hs))
	for _, h := range hs {
		out = append(out, h.Name)
	}
	return out
}

// String describes a step in one line.
func (s Step) String() string {
	switch s.Kind {
	case StepPushConf:
		return fmt.Sprintf("push-conf %s (%s) on %v, %d changed keys", s.Path, s.Service, s.Hosts, len(s.Changes))
	case StepRingPorts:
		return fmt.Sprintf("ring %s: port per disk %v", s.Ring, s.PortPerDisk)
	case StepRestart:
		return fmt.Sprintf("restart %s on %v", s.Service, s.Hosts)
	}
	return fmt.Sprintf("%s %s on %v", s.Kind, s.Workload, s.Hosts)
}
