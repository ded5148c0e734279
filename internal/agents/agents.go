package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"benchbed/load"
	"benchbed/plan"
	"benchbed/remote"
	"benchbed/results"
)

// Proc is one started `benchbed agent`: its stdin takes the job and
// its EOF stops it; its stdout carries the JSON-line events.
type Proc struct {
	Stdin  io.WriteCloser
	Stdout io.Reader
	Wait   func() error // after Stdout ended: the process's outcome
}

// Installer makes benchbed runnable on a host: what the load, prefill and
// telemetry agents' hosts (Hosts, PrefillHosts, TelemetryHosts) all need
// before an agent starts. PoolAgents is one.
type Installer interface {
	// Install makes benchbed runnable on host and returns its path there.
	Install(ctx context.Context, host string) (string, error)
}

// Hosts is what running agents needs of the client hosts. PoolAgents
// is the real one, over SSH.
type Hosts interface {
	Installer
	// ClockOffset returns how far host's clock is ahead of this machine's
	// (negative: behind), and the uncertainty of the measure.
	ClockOffset(ctx context.Context, host string) (offset, uncertainty time.Duration, err error)
	// Start runs "<bin> agent" on host.
	Start(ctx context.Context, host, bin string) (*Proc, error)
}

// Job is one load run from the agents of the client hosts.
type Job struct {
	Name      string        // a label for the agents' names (e.g. the cell id)
	Clients   []string      // client hosts
	PerClient int           // agents per client host (default 1)
	Scenario  []byte        // ssbench scenario JSON
	Auth      load.AuthSpec // how agents reach the cluster
	// AgentAuth, when set, is how agent i (0-based, in start order) reaches
	// the cluster instead of Auth: its own endpoint (plan's AgentEndpoint).
	AgentAuth func(i int) load.AuthSpec
	Verify    bool          // every GET's body checked against what was written
	Users     int           // users in all (0 = the scenario's user_count)
	Duration  time.Duration // run time (0 = the scenario's)
	Ops       int64         // operation count in all, when no duration
	Rate      float64       // open loop: ops/s in all
	Keep      bool          // keep the objects the run creates
	Lead      time.Duration // from sending the jobs to the shared start (0: from the clients' measures, startLead)
	LogDir    string        // when set, each agent's stream is kept there as agent-<n>-<host>.jsonl
	Live      func(results.Live)

	// Fill makes the run a fill experiment: every agent fills its share
	// (load.Job.Fill).
	Fill *results.FillSpec
	// Started, when set, learns the agents' shared start time once every
	// agent has its job.
	Started func(start time.Time)
	// Stop, when closed, ends the run gracefully: every agent is sent
	// load.StopLine (agents_stop.go).
	Stop <-chan struct{}
	// Second, when set, is told each second of the run for all agents:
	// req/s and first-byte p99 (results.Seconds), as the intervals come.
	Second func(reqPerS, p99 float64)
	// Each, when set, is handed every agent event as it is merged, with
	// its stream's index (a metrics stream's Observer.Event).
	Each func(stream int, ev results.AgentEvent)
}

// agentJobs splits the run over n agents: users, operations and rate
// divided evenly (the first agents take the remainder).
func (r Job) agentJobs(users int, start time.Time, hosts []string) []load.Job {
	n := len(hosts)
	jobs := make([]load.Job, n)
	for i := range jobs {
		j := load.Job{Agent: fmt.Sprintf("%s/%s#%d", r.Name, hosts[i], i), Scenario: json.RawMessage(r.Scenario),
			Auth: r.Auth, Users: share(users, n, i), DurationS: r.Duration.Seconds(),
			Keep: r.Keep, StartAt: start, Part: i, Parts: n, Fill: r.Fill, Verify: r.Verify}
		if r.AgentAuth != nil {
			j.Auth = r.AgentAuth(i)
		}
		if r.Ops > 0 {
			j.Ops = max(share(r.Ops, n, i), 1)
		}
		if r.Rate > 0 {
			j.Rate = r.Rate / float64(n)
		}
		jobs[i] = j
	}
	return jobs
}

func share[T int | int64](total T, n, i int) T {
	s := total / T(n)
	if T(i) < total%T(n) {
		s++
	}
	return s
}

// agentHosts lists one entry per agent: each client PerClient times, capped
// at users agents (an agent with no user would run the scenario's count).
func (r Job) agentHosts(users int) []string {
	per := max(r.PerClient, 1)
	var out []string
	for i := 0; i < per; i++ {
		for _, c := range r.Clients {
			if len(out) < users {
				out = append(out, c)
			}
		}
	}
	return out
}

// sendJob writes the job as one JSON line, leaving stdin open.
func sendJob(w io.Writer, j load.Job) error {
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// prepareClients installs benchbed on every client and checks its clock,
// on all of them at once through remote's fan-out; it returns each
// client's binary and the start lead their measures call for (startLead).
func prepareClients(ctx context.Context, hs Hosts, clients []string) (map[string]string, time.Duration, error) {
	bins := map[string]string{}
	var clocks []clock
	var mu sync.Mutex
	err := remote.FanOut(ctx, 0, dedupeHosts(clients), func(ctx context.Context, c string) error {
		bin, err := hs.Install(ctx, c)
		var ck clock
		if err == nil {
			ck, err = checkClock(ctx, hs, c)
		}
		mu.Lock()
		defer mu.Unlock()
		bins[c] = bin
		clocks = append(clocks, ck)
		return err
	}).Err()
	return bins, startLead(clocks), err
}

// checkClock refuses a client whose clock is off by more than load.MaxSkew,
// and returns its measure.
func checkClock(ctx context.Context, hs Hosts, host string) (clock, error) {
	off, unc, err := hs.ClockOffset(ctx, host)
	if err != nil {
		return clock{}, fmt.Errorf("%s: reading its clock: %w", host, err)
	}
	// Refused when the skew is over the limit even at the measure's most
	// favourable end: a loaded host's slow answer alone is no skew.
	if off.Abs()-unc > load.MaxSkew {
		return clock{}, fmt.Errorf("%s: its clock is %v off this machine's (±%v), more than %v: agents cannot start together; sync the clocks (chrony/NTP)",
			host, off.Round(time.Millisecond), unc.Round(time.Millisecond), load.MaxSkew)
	}
	return clock{offset: off, uncertainty: unc}, nil
}

func dedupeHosts(hosts []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, h := range hosts {
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	return out
}

// WorkloadAuth is how a workload's agents reach the cluster.
func WorkloadAuth(w *plan.Workload) load.AuthSpec {
	return authSpec(w.Auth, w.StorageURL, w.Token)
}

// WorkloadAgentAuth is how the workload's agent i reaches the cluster: at
// its endpoint (plan's AgentEndpoint: an auth URL with an auth block, else
// a storage URL with the workload's token).
func WorkloadAgentAuth(w *plan.Workload, i int) load.AuthSpec {
	if a := w.AgentAuth(i); a != nil {
		return authSpec(a, "", "")
	}
	return authSpec(nil, w.AgentEndpoint(i), w.Token)
}

func authSpec(auth *plan.Auth, storageURL, token string) load.AuthSpec {
	if auth == nil {
		return load.AuthSpec{StorageURL: storageURL, Token: token}
	}
	if auth.Kind == "s3" {
		return load.AuthSpec{S3: &load.S3Config{Endpoint: auth.URL, AccessKey: auth.User, SecretKey: auth.Key,
			Region: auth.Region, PathStyle: auth.PathStyle, SignPayload: auth.SignPayload}}
	}
	a := load.AuthSpec{URL: auth.URL, User: auth.User, Key: auth.Key}
	if auth.Kind == "v3" {
		a.Project, a.Domain = auth.Project, auth.Domain
	}
	return a
}
