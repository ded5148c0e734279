package agents

import (
	"context"
	"errors"
	"fmt"
	"time"

	"benchbed/plan/scenario"
	"benchbed/results"
)

// The start lead's bounds and margin: from sending the jobs to the
// agents' shared start. The jobs go to agents already started and waiting
// on their stdin, so the lead is the jobs' way there (an SSH round trip
// at most), the clients' clock offset, and what an agent does before it
// waits (parse the job, create the scenario's containers): the margin.
const (
	leadMargin = 250 * time.Millisecond
	leadMin    = 300 * time.Millisecond
	leadMax    = time.Second // what every run waited before the lead was measured
	// clockReuse is how long the clients' install and clock checks stand
	// for agents started again on them (Prepared.Again): a clock NTP
	// slews (at most 500 ppm, the kernel's bound) moves 30 ms in it, and
	// each agent still refuses a start in its past by over load.MaxSkew.
	clockReuse = time.Minute
)

// clock is one client's clock measure: its offset and its uncertainty
// (half the best sample's round trip).
type clock struct{ offset, uncertainty time.Duration }

// startLead is the lead the clients' measures call for: the slowest
// client's round trip (twice its uncertainty) plus its offset, plus the
// margin, within leadMin and leadMax.
func startLead(clocks []clock) time.Duration {
	var worst time.Duration
	for _, c := range clocks {
		worst = max(worst, 2*c.uncertainty+c.offset.Abs())
	}
	return min(max(worst+leadMargin, leadMin), leadMax)
}

// Prepared are one load run's agents, installed, their clients' clocks
// checked and started, waiting for their jobs: what takes a run's first
// second or so, done ahead (while the cell's servers restart, or during
// the warm-up) so that the run itself only sends the jobs. Each is run
// once (its agents end with their job), or closed.
type Prepared struct {
	hosts   []string // one per agent
	clients []string // the job's, checked
	bins    map[string]string
	procs   []*Proc
	users   int
	lead    time.Duration
	// checked is when the clients' install and clocks were checked.
	checked time.Time
	// spawned is when the agents' processes were started: a job sent
	// sooner than leadMax after it may wait for the process to be ready.
	spawned time.Time
	used    bool
}

// Prepare installs benchbed on r's clients, checks their clocks (an offset
// over load.MaxSkew is refused) and starts r's agents, which wait for
// their jobs (Run).
func Prepare(ctx context.Context, hs Hosts, r Job) (*Prepared, error) {
	sc, err := scenario.Parse(r.Scenario)
	if err != nil {
		return nil, err
	}
	users := r.Users
	if users <= 0 {
		users = sc.UserCount
	}
	hosts := r.agentHosts(users)
	if len(hosts) == 0 {
		return nil, errors.New("agents: no client host")
	}
	return (&Prepared{hosts: hosts, clients: r.Clients, users: users}).start(ctx, hs)
}

// Again starts another set of p's agents, for the same job on the same
// hosts, waiting for their jobs (Run): the next of a series of runs (a
// search's probes), started while p runs so that the next run only sends
// its jobs. The clients' install and clock checks are p's when made less
// than clockReuse ago, made again otherwise.
func (p *Prepared) Again(ctx context.Context, hs Hosts) (*Prepared, error) {
	next := &Prepared{hosts: p.hosts, clients: p.clients, users: p.users}
	if time.Since(p.checked) < clockReuse {
		next.bins, next.lead, next.checked = p.bins, p.lead, p.checked
	}
	return next.start(ctx, hs)
}

// start checks the clients (unless p holds their checks) and starts p's
// agents.
func (p *Prepared) start(ctx context.Context, hs Hosts) (*Prepared, error) {
	if p.bins == nil {
		checked := time.Now()
		bins, lead, err := prepareClients(ctx, hs, p.clients)
		if err != nil {
			return nil, err
		}
		p.bins, p.lead, p.checked = bins, lead, checked
	}
	procs, err := startAgents(ctx, hs, p.hosts, p.bins)
	if err != nil {
		return nil, err
	}
	p.procs, p.spawned = procs, time.Now()
	return p, nil
}

// Lead is the start lead a run of p takes unless its job sets one.
func (p *Prepared) Lead() time.Duration { return p.lead }

// Run sends every agent its job of r with one shared start time and
// merges their streams. r must be the job p was prepared for, its
// duration, operations and fill aside (a warm-up's agents are a run's).
// When ctx ends, the agents' stdins are closed, which stops them; Run
// returns once every agent process has ended.
func (p *Prepared) Run(ctx context.Context, r Job) (*results.Merged, error) {
	if p.used {
		return nil, errors.New("agents: a prepared run used twice")
	}
	p.used = true
	jobs := r.agentJobs(p.users, p.startAt(time.Now(), r.Lead), p.hosts)
	// The jobs carry no Clock: the agent's check of it would count the
	// job's delivery (SSH, process start) as skew and refuse loaded but
	// well-synced hosts; prepareClients measured each offset instead, with
	// the round trip taken out.
	var sendErr error
	for i, proc := range p.procs {
		if err := sendJob(proc.Stdin, jobs[i]); err != nil && sendErr == nil {
			sendErr = fmt.Errorf("agent on %s: sending the job: %w", p.hosts[i], err)
		}
	}
	if r.Started != nil && sendErr == nil {
		r.Started(jobs[0].StartAt)
	}
	closeLogs, err := r.keepStreams(p.procs, p.hosts)
	if err != nil {
		stopAgents(p.procs)
		return nil, err
	}
	defer closeLogs()
	defer r.watchStop(p.procs)()
	return collect(ctx, p.procs, p.hosts, r.Live, r.each(len(p.procs)), sendErr)
}

// startAt is the shared start of a run whose jobs are sent at now: lead
// after it (0: the measured one), and never sooner than leadMax after the
// agents' processes were started (agents prepared just before their run
// may still be starting, as when every run started its own).
func (p *Prepared) startAt(now time.Time, lead time.Duration) time.Time {
	if lead <= 0 {
		lead = p.lead
	}
	at := now.Add(lead)
	if ready := p.spawned.Add(leadMax); at.Before(ready) {
		at = ready
	}
	return at.Round(time.Millisecond)
}

// Close stops the agents of a prepared run that was not run (nil, or one
// that ran: nothing).
func (p *Prepared) Close() error {
	if p == nil || p.used {
		return nil
	}
	p.used = true
	return stopAgents(p.procs)
}

// RunAgents prepares r's agents (Prepare) and runs r on them (Run).
func RunAgents(ctx context.Context, hs Hosts, r Job) (*results.Merged, error) {
	p, err := Prepare(ctx, hs, r)
	if err != nil {
		return nil, err
	}
	return p.Run(ctx, r)
}
