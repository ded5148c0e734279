package sweep

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"benchbed/internal/agents"
	"benchbed/plan/schedule"
)

// countedAgents are in-process agents that count those started and those
// whose process ended.
type countedAgents struct {
	*agents.Local
	mu             sync.Mutex
	started, ended int
}

func (c *countedAgents) Start(ctx context.Context, host, bin string) (*agents.Proc, error) {
	p, err := c.Local.Start(ctx, host, bin)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.started++
	c.mu.Unlock()
	wait := p.Wait
	var once sync.Once
	p.Wait = func() error {
		once.Do(func() { c.mu.Lock(); c.ended++; c.mu.Unlock() })
		return wait()
	}
	return p, nil
}

// aheadCell is teleCell's cell with a 300 ms warm-up before its run, its
// agents counted, and steps of the kinds given before its warm-up.
func aheadCell(t *testing.T, before ...schedule.Kind) (*Sweeper, schedule.CellPlan, *countedAgents) {
	s, cp := teleCell(t, func(h http.Handler) http.Handler { return h })
	ca := &countedAgents{Local: &agents.Local{}}
	s.opts.Agents = ca
	s.tb.Sweep.Warmup = 300 * time.Millisecond
	var steps []schedule.Step
	for _, k := range before {
		steps = append(steps, schedule.Step{Kind: k})
	}
	cp.Steps = append(append(steps, schedule.Step{Kind: schedule.StepWarmup}), cp.Steps...)
	return s, cp, ca
}

// TestCellAgentsPreparedAhead: the warm-up's agents and the run's, each
// prepared before its step, both run their jobs (one each), and every
// agent ends with the cell.
func TestCellAgentsPreparedAhead(t *testing.T) {
	s, cp, ca := aheadCell(t)
	res, err := s.runCell(context.Background(), cp, false)
	if err != nil {
		t.Fatalf("%v (%+v)", err, res)
	}
	if ca.started != 2 || ca.ended != 2 || len(ca.Jobs) != 2 {
		t.Fatalf("%d agents started, %d ended, %d jobs: want the warm-up's and the run's, one job each", ca.started, ca.ended, len(ca.Jobs))
	}
	if w, r := ca.Jobs[0], ca.Jobs[1]; w.DurationS != 0.3 || r.DurationS != 1 || !r.StartAt.After(w.StartAt) {
		t.Fatalf("jobs %+v then %+v: want the 0.3 s warm-up, then the 1 s run", w, r)
	}
	if res.Status != "ok" || res.Telemetry == nil {
		t.Fatalf("status %s, telemetry %v", res.Status, res.Telemetry)
	}
}

// TestCellAgentsAheadEndWithAFailedCell: a cell that fails before its
// warm-up (its record step, made to fail) ends the agents prepared for
// it, which got no job.
func TestCellAgentsAheadEndWithAFailedCell(t *testing.T) {
	saved := perCell
	t.Cleanup(func() { perCell = saved })
	perCell = slices.Clone(perCell)
	perCell[0].run = func(*cellRun, context.Context) error { return errors.New("the record step fails") }
	s, cp, ca := aheadCell(t, perCell[0].kind)
	if _, err := s.runCell(context.Background(), cp, false); err == nil || !strings.Contains(err.Error(), "the record step fails") {
		t.Fatalf("a cell whose record step fails: %v", err)
	}
	if ca.started != 1 || ca.ended != 1 || len(ca.Jobs) != 0 {
		t.Fatalf("%d agents started, %d ended, %d jobs: want the warm-up's one agent ended without a job", ca.started, ca.ended, len(ca.Jobs))
	}
}
