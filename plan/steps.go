package plan

import (
	"fmt"
	"sort"
	"time"

	"benchbed/secrets"
)

// Kinds of Step.
const (
	StepRender    = "render"     // write a service's conf on its hosts
	StepRingPorts = "ring-ports" // switch a ring between one port per host and one per disk
	StepRestart   = "restart"    // restart a service on its hosts and wait until healthy
	StepPrefill   = "prefill"    // create the workloads' initial objects (once)
	StepCheck     = "check"      // list a workload's initial objects, no PUT: the sweep's precondition
	StepWarmup    = "warmup"     // unmeasured load before the run
	StepRun       = "run"        // the measured run
	StepRestore   = "restore"    // put back the confs and rings found before the sweep
)

// Step is one thing a sweep does, in order.
type Step struct {
	Kind        string
	Hosts       []string     // where it happens
	Service     string       // render, restart
	Path        string       // render: the conf's path on each host
	Changes     []Change     // render: what differs from the previous cell
	Ring        string       // ring-ports
	PortPerDisk bool         // ring-ports: the layout switched to
	Ports       []PortChange // ring-ports: per host, the devices' old and new ports
	Workload    string       // prefill, warmup, run
	Users       int          // run
	Duration    time.Duration
	Agents      int // run: clients x agents_per_client
}

// Change is one setting that differs from the previous cell. Old or New is
// "" when the key is absent; sensitive values are secrets.Masked.
type Change struct {
	Section, Key, Old, New string
}

// CellPlan is a cell and its steps.
type CellPlan struct {
	Cell  Cell
	Steps []Step
}

// Plan is the ordered work of a sweep: per cell its steps, then the
// restore. It is computed from the model alone; nothing is contacted.
type Plan struct {
	Testbed  *Testbed
	Before   []Step // before any lock or change: the preconditions
	Cells    []CellPlan
	Finally  []Step // after the last cell
	Estimate Estimate
}

// NewPlan computes the steps of every cell of tb. The first cell renders and
// restarts every service (the lab's state before the sweep is unknown) and
// sets every ring's port layout it needs; later cells render and restart only
// the services whose settings differ from the previous cell's, and switch a
// ring only when its layout differs. Prefill runs once, in the first cell,
// once the services are up.
func NewPlan(tb *Testbed) *Plan {
	p := &Plan{Testbed: tb}
	for _, w := range InitialChecks(tb) {
		p.Before = append(p.Before, Step{Kind: StepCheck, Hosts: w.Clients, Workload: w.Name})
	}
	var prev *Variant
	for i, c := range Expand(tb) {
		cp := CellPlan{Cell: c}
		cp.Steps = append(cp.Steps, configSteps(tb, prev, c.Variant, i == 0)...)
		if i == 0 && tb.Prefill != nil {
			cp.Steps = append(cp.Steps, prefillSteps(tb)...)
		}
		cp.Steps = append(cp.Steps, runSteps(tb, c.Workload)...)
		p.Cells = append(p.Cells, cp)
		prev = c.Variant
	}
	if tb.Sweep.Restore {
		p.Finally = []Step{{Kind: StepRestore, Hosts: hostNames(tb.Hosts)}}
	}
	p.Estimate = estimate(p)
	return p
}

// configSteps returns the render, ring-ports and restart steps that take
// the lab from variant prev (nil: unknown state) to cur.
func configSteps(tb *Testbed, prev, cur *Variant, first bool) []Step {
	var render, rings, restart []Step
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
		render = append(render, Step{Kind: StepRender, Hosts: hosts, Service: s.Name, Path: s.Path, Changes: changes})
		restart = append(restart, Step{Kind: StepRestart, Hosts: hosts, Service: s.Name})
		restarted[s.Name] = true
	}
	for _, r := range tb.Rings {
		was := prev != nil && prev.PortPerDisk(r.Name)
		now := cur.PortPerDisk(r.Name)
		if was == now && !(first && now) {
			continue
		}
		hosts := hostNames(tb.Hosts)
		rings = append(rings, Step{Kind: StepRingPorts, Hosts: hosts, Ring: r.Name, PortPerDisk: now,
			Ports: ringPortDiff(tb, prev, cur, r.Name)})
		// The ring's servers must listen on the new ports.
		for _, s := range tb.Services {
			if s.Role == r.Role && !restarted[s.Name] {
				restart = append(restart, Step{Kind: StepRestart, Hosts: hostNames(tb.HostsWithRole(s.Role)), Service: s.Name})
				restarted[s.Name] = true
			}
		}
	}
	return append(append(render, rings...), restart...)
}

// ringPortDiff returns ring's port changes from variant prev (nil: one
// port per host everywhere, as setup builds rings) to cur.
func ringPortDiff(tb *Testbed, prev, cur *Variant, ring string) []PortChange {
	a, errA := tb.Layout(prev)
	b, errB := tb.Layout(cur)
	if errA != nil || errB != nil {
		return nil // Load reported the collision
	}
	var out []PortChange
	_, changes := DiffLayouts(a, b)
	for _, c := range changes {
		if c.Ring == ring {
			out = append(out, c)
		}
	}
	return out
}

// settingChanges lists the keys whose values differ between a and b, sorted.
func settingChanges(a, b Settings) []Change {
	var out []Change
	show := func(s Setting, ok bool) string {
		switch {
		case !ok:
			return ""
		case s.Sensitive:
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
				out = append(out, Change{Section: sec, Key: k, Old: show(x, okA), New: show(y, okB)})
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
// (load.Scenario.ReadsInitial) and that no prefill block creates.
func InitialChecks(tb *Testbed) []*Workload {
	var out []*Workload
	for _, w := range tb.Workloads {
		if tb.Prefill != nil && (len(tb.Prefill.Workloads) == 0 || contains(tb.Prefill.Workloads, w.Name)) {
			continue
		}
		if sc := scenarioOf(w); sc != nil && sc.ReadsInitial() {
			out = append(out, w)
		}
	}
	return out
}

// prefillSteps returns one prefill step per workload to prefill.
func prefillSteps(tb *Testbed) []Step {
	var out []Step
	for _, w := range tb.Workloads {
		if len(tb.Prefill.Workloads) > 0 && !contains(tb.Prefill.Workloads, w.Name) {
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

// runSteps returns the warmup (when the sweep has one) and the run.
func runSteps(tb *Testbed, w *Workload) []Step {
	users, dur := RunShape(w)
	run := Step{Kind: StepRun, Hosts: w.Clients, Workload: w.Name, Users: users, Duration: dur,
		Agents: len(w.Clients) * w.AgentsPerClient}
	if tb.Sweep.Warmup <= 0 {
		return []Step{run}
	}
	warm := run
	warm.Kind, warm.Duration = StepWarmup, tb.Sweep.Warmup
	return []Step{warm, run}
}

// RunShape returns a workload's users and duration, taking the scenario's
// user_count and run_seconds where the workload does not set them. The
// duration is 0 when the run is bounded by an operation count instead.
func RunShape(w *Workload) (users int, dur time.Duration) {
	users, dur = w.Users, w.Duration
	sc := scenarioOf(w)
	if users == 0 && sc != nil {
		users = sc.UserCount
	}
	if dur == 0 && w.OperationCount == 0 && sc != nil && sc.RunSeconds > 0 {
		dur = time.Duration(sc.RunSeconds * float64(time.Second))
	}
	return users, dur
}

func hostNames(hs []*Host) []string {
	out := make([]string, 0, len(hs))
	for _, h := range hs {
		out = append(out, h.Name)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// String describes a step in one line.
func (s Step) String() string {
	switch s.Kind {
	case StepRender:
		return fmt.Sprintf("render %s (%s) on %v, %d changed keys", s.Path, s.Service, s.Hosts, len(s.Changes))
	case StepRingPorts:
		return fmt.Sprintf("ring %s: port per disk %v", s.Ring, s.PortPerDisk)
	case StepRestart:
		return fmt.Sprintf("restart %s on %v", s.Service, s.Hosts)
	}
	return fmt.Sprintf("%s %s on %v", s.Kind, s.Workload, s.Hosts)
}
