package load

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"benchbed/plan/scenario"
	"benchbed/results"
)

// MaxSkew is the most an agent's clock may differ from the orchestrator's.
const MaxSkew = 100 * time.Millisecond

// Job is what `benchbed agent` reads as one JSON line on stdin.
type Job struct {
	Agent     string          `json:"agent"`                // a name for its events
	Scenario  json.RawMessage `json:"scenario"`             // the ssbench scenario, as is
	Auth      AuthSpec        `json:"auth"`                 // how to reach the cluster
	Users     int             `json:"users,omitempty"`      // this agent's users (0: scenario's)
	DurationS float64         `json:"duration_s,omitempty"` // run time (0: scenario's)
	Ops       int64           `json:"operations,omitempty"` // operation count when no duration
	Rate      float64         `json:"rate,omitempty"`       // open loop: ops/s for this agent
	Keep      bool            `json:"keep,omitempty"`       // keep the objects the run creates
	StartAt   time.Time       `json:"start_at"`             // wall time of the first operation
	Clock     time.Time       `json:"clock,omitempty"`      // the orchestrator's clock when it sent the job
	Part      int             `json:"part,omitempty"`       // this agent's share of the objects (Config.Part)
	Parts     int             `json:"parts,omitempty"`      // agents running the scenario at once
	// Fill makes the run a fill experiment (Config.Fill); the agent's
	// share of the target is its operation count unless Ops is given.
	Fill *results.FillSpec `json:"fill,omitempty"`
	// Verify checks every GET's body against what was written (Config.Verify).
	Verify bool `json:"verify,omitempty"`
}

// AuthSpec is one of: URL, User and Key (auth v1.0, or Keystone v3 when
// Project is set); or StorageURL and Token.
type AuthSpec struct {
	URL        string `json:"url,omitempty"`
	User       string `json:"user,omitempty"`
	Key        string `json:"key,omitempty"`
	Project    string `json:"project,omitempty"`
	Domain     string `json:"domain,omitempty"`
	StorageURL string `json:"storage_url,omitempty"`
	Token      string `json:"token,omitempty"`
	// S3, when set, makes the client speak S3 to its endpoint instead
	// (the fields above unused).
	S3 *S3Config `json:"s3,omitempty"`
}

// String never shows the key, the token or the secret key.
func (a AuthSpec) String() string {
	if a.S3 != nil {
		return a.S3.String()
	}
	if a.StorageURL != "" {
		return "storage URL " + a.StorageURL + " with a token"
	}
	return fmt.Sprintf("auth %s as %q", a.URL, a.User)
}

// NewAuth returns the Auth the spec describes, on hc.
func (a AuthSpec) NewAuth(hc *http.Client) (Auth, error) {
	switch {
	case a.StorageURL != "" && a.Token != "" && a.URL == "":
		return StaticAuth{StorageURL: a.StorageURL, AuthToken: a.Token}, nil
	case a.URL != "" && a.User != "" && a.Key != "" && a.StorageURL == "":
		if a.Project != "" {
			return NewKeystoneV3Auth(hc, KeystoneV3{URL: a.URL, User: a.User, Password: a.Key,
				Project: a.Project, Domain: a.Domain}), nil
		}
		return NewV1Auth(hc, a.URL, a.User, a.Key), nil
	}
	return nil, errors.New("auth: give either url, user and key, or storage_url and token")
}

// NewClient returns a client for users concurrent requests that speaks
// the spec's API: S3 when S3 is set, else Swift's with its auth.
func (a AuthSpec) NewClient(users int) (*Client, error) {
	c := &Client{HTTP: &http.Client{Transport: NewTransport(users)}, MaxRetries: 3}
	var err error
	if a.S3 != nil {
		c.API, err = NewS3(*a.S3)
	} else {
		c.Auth, err = a.NewAuth(c.HTTP)
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

// RunAgent is `benchbed agent`: it reads a Job from the first line of in,
// checks the clocks, runs it, and writes Events to out. It stops early when
// ctx is done or in reaches its end (the orchestrator went away), and
// returns only when every request and goroutine of the run has ended.
// onStart (if not nil) learns the number of users and the fill spec (nil
// but for a fill run) before the run starts (the command sets the memory
// limit with them).
func RunAgent(ctx context.Context, in io.Reader, out io.Writer, onStart func(users int, fill *results.FillSpec)) error {
	return RunAgentClock(ctx, in, out, onStart, time.Now)
}

// RunAgentClock is RunAgent with the clock that the job's clock and start
// are checked against (RunAgent's: time.Now): an in-process agent's
// (agents.Local) or a test's, which shares the orchestrator's clock, so
// that no delay of a loaded machine between sending a job and the agent
// reading it can make the agent refuse it as skewed or late.
func RunAgentClock(ctx context.Context, in io.Reader, out io.Writer, onStart func(users int, fill *results.FillSpec), now func() time.Time) error {
	w := results.NewLineWriter(out)
	br := bufio.NewReaderSize(in, 1<<16)
	line, err := br.ReadBytes('\n')
	if err != nil && (err != io.EOF || len(line) == 0) {
		return agentFail(w, "", fmt.Errorf("agent: reading the job from stdin: %w", err))
	}
	var job Job
	if err := json.Unmarshal(line, &job); err != nil {
		return agentFail(w, "", fmt.Errorf("agent: the job on stdin: %w", err))
	}
	cfg, err := job.config(now())
	if err != nil {
		return agentFail(w, job.Agent, err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := make(chan struct{})
	cfg.Stop = stop
	go func() { // a stop line ends the run gracefully; stdin closed: the orchestrator is gone
		readControl(br, stop)
		cancel()
	}()
	w.Put(results.AgentEvent{Type: "ready", Agent: job.Agent, Clock: time.Now()})
	cpu0, t0 := ProcessCPU(), time.Now()
	res, err := runAgentJob(ctx, job, cfg, w, onStart)
	if err != nil {
		return agentFail(w, job.Agent, err)
	}
	share := CPUShare(ProcessCPU()-cpu0, time.Since(t0))
	done := results.AgentEvent{Type: "done", Agent: job.Agent, Duration: res.Duration.Seconds(), Clock: time.Now(), ClientCPU: &share}
	if res.Cleanup != nil {
		done.Error = res.Cleanup.Error()
	}
	w.Put(done)
	return w.Err()
}

func agentFail(w *results.LineWriter, agent string, err error) error {
	w.Put(results.AgentEvent{Type: "error", Agent: agent, Error: err.Error()})
	return err
}

// config checks the job against the agent's clock and builds the run.
func (j Job) config(now time.Time) (Config, error) {
	if !j.Clock.IsZero() {
		if skew := now.Sub(j.Clock).Abs(); skew > MaxSkew {
			return Config{}, fmt.Errorf("agent: clock skew %v with the orchestrator exceeds %v: refusing to run", skew.Round(time.Millisecond), MaxSkew)
		}
	}
	if j.StartAt.IsZero() {
		return Config{}, errors.New("agent: the job has no start_at")
	}
	if late := now.Sub(j.StartAt); late > MaxSkew {
		return Config{}, fmt.Errorf("agent: start_at is %v in the past by this host's clock (more than %v): refusing to run", late.Round(time.Millisecond), MaxSkew)
	}
	s, err := scenario.Parse(j.Scenario)
	if err != nil {
		return Config{}, err
	}
	return Config{Scenario: s, Users: j.Users, Duration: time.Duration(j.DurationS * float64(time.Second)),
		Operations: j.Ops, Rate: j.Rate, Keep: j.Keep, StartAt: j.StartAt, Part: j.Part, Parts: j.Parts, Fill: j.Fill, Verify: j.Verify}, nil
}

// runAgentJob runs the job, streaming one interval and one progress event
// per interval.
func runAgentJob(ctx context.Context, job Job, cfg Config, w *results.LineWriter, onStart func(int, *results.FillSpec)) (*Result, error) {
	users := cfg.Users
	if users <= 0 {
		users = cfg.Scenario.UserCount
	}
	if onStart != nil {
		onStart(users, cfg.Fill)
	}
	c, err := job.Auth.NewClient(users)
	if err != nil {
		return nil, err
	}
	defer c.HTTP.CloseIdleConnections()
	cfg.Client = c
	var index int
	var done, errs int64
	cfg.OnInterval = func(start, end time.Time, r results.Recording, fill results.FillRecording) {
		w.Put(results.AgentEvent{Type: "interval", Agent: job.Agent, Index: index, Start: start, End: end, Ops: r, Fill: fill})
		for _, h := range r {
			done += h.LastByte.Count()
			errs += h.ErrorCount()
		}
		w.Put(results.AgentEvent{Type: "progress", Agent: job.Agent, Index: index, Elapsed: end.Sub(cfg.StartAt).Seconds(),
			Done: done, Errors: errs})
		index++
	}
	return Run(ctx, cfg)
}
