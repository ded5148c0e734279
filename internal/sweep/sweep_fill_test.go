package sweep

import (
	"context"
	"strings"
	"testing"

	"benchbed/internal/agents"
	"benchbed/internal/labtest"
	"benchbed/load"
	"benchbed/plan"
	"benchbed/results"
)

// TestMeasureFillCell: a fill workload's cell, run by two agents, has every
// bucket of its fill target, each with PUTs, and the jobs carried the fill
// to both agents (the warm-up's would not).
func TestMeasureFillCell(t *testing.T) {
	srv := labtest.ObjectServer(t)
	s := bareSweeper(t)
	la := &agents.Local{}
	s.opts.Agents = la
	w := &plan.Workload{Name: "fill", Users: 4, Clients: []string{"cl1", "cl2"}, AgentsPerClient: 1,
		ScenarioJSON: []byte(`{"name": "put", "crud_profile": [1, 0, 0, 0], "run_seconds": 900, "container_count": 1,
		  "sizes": [{"name": "1B", "size_min": 1, "size_max": 1}], "initial_files": {"1B": 1}}`),
		StorageURL: srv.URL + "/v1/AUTH_t", Token: "tok", Fill: &plan.Fill{ContainerObjects: 1000, Buckets: 10}}
	c := plan.Cell{ID: "001-normal-fill-r1", Index: 1, Variant: &plan.Variant{Name: "normal"}, Workload: w, Repeat: 1}
	dir, err := s.run.CellDir(c.ID)
	if err != nil {
		t.Fatal(err)
	}
	var res results.Cell
	if err := s.measure(context.Background(), c, dir, &res, nil); err != nil {
		t.Fatal(err)
	}
	var sum int64
	for i, b := range res.Fill {
		if b.Count == 0 || b.From != int64(100*i) || b.To != int64(100*i+100) {
			t.Errorf("bucket %d: %+v", i, b)
		}
		sum += b.Count
	}
	if res.Status != "ok" || len(res.Fill) != 10 || sum != 1000 || res.Ops[load.OpCreate].Count != 1000 {
		t.Errorf("cell %s: %d buckets with %d PUTs of %d", res.Status, len(res.Fill), sum, res.Ops[load.OpCreate].Count)
	}
	for _, j := range la.Jobs {
		if j.Fill == nil || j.Fill.Objects != 1000 || j.Parts != 2 {
			t.Errorf("job %s: fill %v, %d parts", j.Agent, j.Fill, j.Parts)
		}
	}
	if warm := s.agentRun(c, 1, nil); warm.Fill != nil {
		t.Error("the warm-up is a fill run")
	}
	s.cells = []cellResult{{cell: c, res: res}}
	var tbl strings.Builder
	if err := s.Table(&tbl); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tbl.String(), "PUT latency by container fill: normal (1 of 1 repeats)") || !strings.Contains(tbl.String(), " 900..1000 |") {
		t.Errorf("the sweep's table:\n%s", tbl.String())
	}
}
