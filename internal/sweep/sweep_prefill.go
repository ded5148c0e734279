package sweep

import (
	"context"
	"errors"
	"os"
	"time"

	"benchbed/internal/agents"
	"benchbed/results/rundir"
)

// prefill creates (or verifies by listing, putting what is missing) the
// initial objects of the workloads the testbed's prefill block names that
// the sweep runs (on --only's variants: Testbed.Swept), once per run, with
// the prefill agents on the client hosts (Prefill). Its checkpoint is kept
// in the run directory, so a resumed sweep goes on where it stopped.
func (s *Sweeper) prefill(ctx context.Context) error {
	if s.tb.Prefill == nil {
		s.logf("no prefill block: the initial objects the workloads read were checked in place before any change")
		return nil
	}
	hosts, ok := s.opts.Agents.(agents.PrefillHosts)
	if !ok {
		return errors.New("prefill: the agents' hosts cannot start prefill agents")
	}
	dir, err := s.run.Path(rundir.PrefillDir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return err
	}
	res, err := agents.Prefill(ctx, s.tb.Swept(s.opts.Only), hosts, agents.PrefillOptions{StateDir: dir, Progress: s.opts.Log, Every: 5 * time.Second})
	for _, r := range res {
		if r.SameAs != "" {
			s.logf("prefill %s: the %d objects of %s (same layout, account, policy and check)", r.Workload, r.Objects, r.SameAs)
			continue
		}
		found := int64(0)
		if r.Verify != nil {
			found = r.Verify.Skipped
		}
		s.logf("prefill %s: %d objects, %d put, %d found by the listing check, %.1f s",
			r.Workload, r.Objects, r.Fill.Put, found, r.Seconds)
	}
	return err
}

// preconditions refuses the sweep, before it locks or changes anything,
// when the initial objects of a workload it runs (Testbed.Swept) are
// missing and no prefill block creates them (checkInitial: a listing
// check, no PUT).
func (s *Sweeper) preconditions(ctx context.Context) error {
	hosts, ok := s.opts.Agents.(agents.PrefillHosts)
	if !ok {
		return errors.New("preconditions: the agents' hosts cannot start prefill agents to check the initial objects")
	}
	return agents.CheckInitial(ctx, s.tb.Swept(s.opts.Only), hosts, s.opts.Log)
}
