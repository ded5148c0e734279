package agents

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"benchbed/load/prefill"
	"benchbed/plan"
	"benchbed/plan/scenario"
	"benchbed/results/rundir"

	"golang.org/x/sync/errgroup"
)

// PrefillHosts is what a prefill needs of the client hosts: benchbed
// installed there, and `benchbed prefill-agent` started with pipes.
type PrefillHosts interface {
	Installer
	StartPrefillAgent(ctx context.Context, host, bin string) (*Proc, error)
}

// StartPrefillAgent runs "<bin> prefill-agent" on host.
func (a PoolAgents) StartPrefillAgent(ctx context.Context, host, bin string) (*Proc, error) {
	return a.startAgent(ctx, host, bin, "prefill-agent")
}

var _ PrefillHosts = PoolAgents{}

// PrefillOptions say how a prefill runs.
type PrefillOptions struct {
	StateDir string        // where checkpoints are kept (one file per workload and layout)
	Progress io.Writer     // a progress line every Every (nil = none)
	Every    time.Duration // default 2s
	NoVerify bool          // skip the listing check after the fill
}

// PrefillResult is what prefilling one workload did.
type PrefillResult struct {
	Workload string          `json:"workload"`
	Objects  int64           `json:"objects"`
	Fill     prefill.Totals  `json:"fill"`   // the fill pass (zero when the checkpoint was complete)
	Verify   *prefill.Totals `json:"verify"` // the listing check: Skipped found, Put put again
	Seconds  float64         `json:"seconds"`
	// SameAs is the earlier workload whose objects these are (the same
	// layout, account, policy and check): prefilled and checked once, there.
	SameAs string `json:"same_as,omitempty"`
}

// Prefill creates the initial objects of the workloads the testbed's
// prefill block names, from K agents on every client host, resuming from
// the checkpoint in StateDir, then checks them by listing (putting what is
// missing), so a lab prefilled once is reused after a cheap check. A
// workload whose objects an earlier one of the same call created
// (sameObjects) is not prefilled again: its result says SameAs.
func Prefill(ctx context.Context, tb *plan.Testbed, hosts PrefillHosts, opts PrefillOptions) ([]PrefillResult, error) {
	pf := tb.Prefill
	if pf == nil {
		return nil, errors.New("the testbed has no prefill block")
	}
	var out []PrefillResult
	done := map[string]int{} // prefillKey -> its result in out
	for _, w := range tb.Workloads {
		if len(pf.Workloads) > 0 && !slices.Contains(pf.Workloads, w.Name) {
			continue
		}
		key, err := prefillKey(pf, w)
		if err != nil {
			return out, fmt.Errorf("prefill of %s: %w", w.Name, err)
		}
		if i, ok := done[key]; ok {
			same := out[i]
			same.Workload, same.Seconds, same.SameAs = w.Name, 0, out[i].Workload
			out = append(out, same)
			continue
		}
		r, err := prefillWorkload(ctx, tb, w, hosts, opts)
		if r != nil {
			out = append(out, *r)
			done[key] = len(out) - 1
		}
		if err != nil {
			return out, fmt.Errorf("prefill of %s: %w", w.Name, err)
		}
	}
	return out, nil
}

// prefillKey is what makes two workloads' initial objects the same ones:
// their layout (containers, sizes, counts), segment size, account,
// policy and check.
func prefillKey(pf *plan.Prefill, w *plan.Workload) (string, error) {
	sc, l, err := workloadLayout(w)
	if err != nil {
		return "", err
	}
	a := WorkloadAuth(w)
	return fmt.Sprintf("%s %d %q %q %q %q %q %q %q", l.Fingerprint(), sc.SegmentSize, a.URL, a.User, a.Project, a.Domain, a.StorageURL, sc.Policy, pf.Verify), nil
}

// workloadLayout is workload w's scenario and the layout of its initial
// objects.
func workloadLayout(w *plan.Workload) (*scenario.Scenario, *prefill.Layout, error) {
	sc, err := scenario.Parse(w.ScenarioJSON)
	if err != nil {
		return nil, nil, err
	}
	l, err := prefill.NewLayout(sc)
	return sc, l, err
}

func prefillWorkload(ctx context.Context, tb *plan.Testbed, w *plan.Workload, hosts PrefillHosts, opts PrefillOptions) (*PrefillResult, error) {
	sc, l, err := workloadLayout(w)
	if err != nil {
		return nil, err
	}
	ck, err := openCheckpoint(opts.StateDir, w.Name, l)
	if err != nil {
		return nil, err
	}
	p := &prefillPass{tb: tb, pf: tb.Prefill, w: w, hosts: hosts, opts: opts, l: l, policy: sc.Policy}
	res := &PrefillResult{Workload: w.Name, Objects: l.Total()}
	start := time.Now()
	if !ck.state.Complete() {
		if res.Fill, err = p.run(ctx, "fill", ck); err != nil {
			return res, err
		}
	}
	if f := res.Fill; f.Put == 0 && f.Failed == 0 && f.Skipped == l.Total() {
		// The fill pass checked every object and found it: that check is
		// the listing check, not to be made twice.
		res.Verify = &f
	} else if !opts.NoVerify {
		t, err := p.run(ctx, "verify", nil)
		res.Verify = &t
		if err != nil {
			return res, err
		}
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// checkpoint is a prefill's State kept in a file, saved atomically.
type checkpoint struct {
	path  string
	mu    sync.Mutex
	state *prefill.State
}

func openCheckpoint(dir, workload string, l *prefill.Layout) (*checkpoint, error) {
	if dir == "" {
		return nil, errors.New("no directory for the prefill checkpoint")
	}
	p := filepath.Join(dir, rundir.SafeName(workload)+"-"+l.Fingerprint()+".json")
	ck := &checkpoint{path: p, state: &prefill.State{}}
	if b, err := os.ReadFile(p); err == nil {
		if err := json.Unmarshal(b, ck.state); err != nil {
			return nil, fmt.Errorf("%s: %w (remove it to start over)", p, err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if err := ck.state.Bind(l); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return ck, nil
}

func (ck *checkpoint) markDone(unit int) error {
	ck.mu.Lock()
	defer ck.mu.Unlock()
	ck.state.MarkDone(unit)
	b, err := json.Marshal(ck.state)
	if err != nil {
		return err
	}
	return rundir.WriteFileAtomic(ck.path, b, 0o640)
}

// prefillPass is one pass of agents over a workload's objects.
type prefillPass struct {
	tb     *plan.Testbed
	pf     *plan.Prefill // clients, agents and concurrency
	w      *plan.Workload
	check  bool // count what is missing, put nothing (prefill.Options.CheckOnly)
	hosts  PrefillHosts
	opts   PrefillOptions
	l      *prefill.Layout
	policy string
}

// agentHosts is the client host of each agent: K agents per client.
func (p *prefillPass) agentHosts() []string {
	pf := p.pf
	clients, k := pf.Clients, pf.AgentsPerClient
	if len(clients) == 0 {
		clients = p.w.Clients
	}
	var out []string
	for _, c := range clients {
		for i := 0; i < max(k, 1); i++ {
			out = append(out, c)
		}
	}
	return out
}

// run starts every agent with its part, keeps the checkpoint (ck nil: a
// check that keeps none), and waits for them all.
func (p *prefillPass) run(ctx context.Context, pass string, ck *checkpoint) (prefill.Totals, error) {
	hosts := p.agentHosts()
	if len(hosts) == 0 {
		return prefill.Totals{}, errors.New("no client host to run prefill agents on")
	}
	bins, err := installAll(ctx, p.hosts, hosts)
	if err != nil {
		return prefill.Totals{}, err
	}
	var done []int
	if ck != nil {
		done = ck.state.Done
	}
	prog := newPrefillProgress(p.opts.Progress, p.w.Name+" "+pass, p.l.Total(), len(hosts))
	prog.base = p.l.ObjectsIn(done)
	stopProg := prog.every(p.opts.Every)
	defer stopProg()
	g, gctx := errgroup.WithContext(ctx)
	for i, h := range hosts {
		job := prefill.AgentJob{Agent: fmt.Sprintf("%s/%s#%d", pass, h, i), Scenario: p.w.ScenarioJSON,
			Auth: WorkloadAuth(p.w), Policy: p.policy, Part: i, Parts: len(hosts),
			Concurrency: p.pf.Concurrency, Verify: p.pf.Verify, Done: done, CheckOnly: p.check}
		g.Go(func() error {
			onUnit := func(int) {}
			if ck != nil {
				onUnit = func(u int) {
					if err := ck.markDone(u); err != nil {
						prog.note("checkpoint: " + err.Error())
					}
				}
			}
			return runPrefillAgent(gctx, p.hosts, h, bins[h], job, onUnit, func(t prefill.Totals) { prog.set(i, t) })
		})
	}
	err = g.Wait()
	stopProg()
	return prog.total(), err
}

// installAll installs benchbed on every distinct host of hosts at once
// and returns each one's binary; the first failure cancels the others.
func installAll(ctx context.Context, hs Installer, hosts []string) (map[string]string, error) {
	bins := map[string]string{}
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	for _, h := range dedupeHosts(hosts) {
		g.Go(func() error {
			bin, err := hs.Install(gctx, h)
			if err != nil {
				return fmt.Errorf("%s: installing benchbed: %w", h, err)
			}
			mu.Lock()
			bins[h] = bin
			mu.Unlock()
			return nil
		})
	}
	return bins, g.Wait()
}

// runPrefillAgent starts one agent, sends its job, reads its events until
// it is done, and stops it (closing its stdin) whatever happened.
func runPrefillAgent(ctx context.Context, hs PrefillHosts, host, bin string, job prefill.AgentJob, onUnit func(int), onProgress func(prefill.Totals)) error {
	proc, err := hs.StartPrefillAgent(ctx, host, bin)
	if err != nil {
		return fmt.Errorf("%s: starting the prefill agent: %w", host, err)
	}
	// The agent stops when its stdin ends: end it as soon as ctx is done,
	// not only after the agent has said done.
	stopped := make(chan struct{})
	defer close(stopped)
	go func() {
		select {
		case <-ctx.Done():
			_ = proc.Stdin.Close()
		case <-stopped:
		}
	}()
	b, err := json.Marshal(job)
	if err == nil {
		_, err = proc.Stdin.Write(append(b, '\n'))
	}
	var rerr error
	if err == nil {
		_, rerr = prefill.ReadAgent(proc.Stdout, onUnit, onProgress)
	}
	_ = proc.Stdin.Close()
	_, _ = io.Copy(io.Discard, proc.Stdout)
	werr := proc.Wait()
	switch {
	case err != nil:
		return fmt.Errorf("%s: sending the job: %w", host, err)
	case rerr != nil:
		return fmt.Errorf("%s: %w", host, rerr)
	case werr != nil && ctx.Err() == nil:
		return fmt.Errorf("%s: the prefill agent: %w", host, werr)
	}
	return ctx.Err()
}
