package sweep

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/internal/agents"
	"benchbed/internal/labtest"
	"benchbed/plan"
	"benchbed/plan/decode"
	"benchbed/results"
	"benchbed/results/rundir"
)

// TestSweepSearchCell: a search cell runs its probes from the agents
// (each kept under probes/), journals each, and records the search with
// the figures of the probe at the capacity. The agents' load is real,
// but what the search judges is scripted (every probe achieves its
// offered rate within the SLO: scriptedProbe), so the answer is the
// same at any load of this machine (a fresh make test's race detector on
// a busy CPU once found 32.35 of 40 req/s achieved); the search's own
// arithmetic is results' TestSearchFindsTheCapacity's.
func TestSweepSearchCell(t *testing.T) {
	srv := httptest.NewServer(&labtest.Swift{Objects: map[string]map[string]int64{}})
	t.Cleanup(srv.Close)
	tb := searchTestbed(t, srv.URL)
	s := bareSweeper(t)
	s.tb, s.opts.Agents, s.scriptProbe = tb, &agents.Local{}, scriptedProbe
	c := plan.Expand(tb)[0]
	dir, err := s.run.CellDir(c.ID)
	if err != nil {
		t.Fatal(err)
	}
	var res results.Cell
	ex := &cellRun{inputs: s.inputs, s: s, c: c, dir: dir, res: &res}
	if err := ex.search(context.Background()); err != nil {
		t.Fatal(err)
	}
	se := res.Search
	if se == nil || res.Status != "ok" || se.Outcome != results.OutcomeAboveTo || se.Capacity != 160 || len(se.Probes) < 3 {
		t.Fatalf("cell %s, search %+v", res.Status, se)
	}
	// An open loop's first slot is due at the start: every probe made a
	// request, whatever the load.
	if last := se.Probes[len(se.Probes)-1]; last.Offered != 160 || res.Total.Count == 0 || res.Total.Count != last.Count {
		t.Errorf("the cell's figures (%d requests) are not the last 160 req/s probe's: %+v", res.Total.Count, last)
	}
	kept, _ := filepath.Glob(filepath.Join(dir, ProbesDir, "*", rundir.AgentsDir, "agent-*.jsonl"))
	if len(kept) != len(se.Probes) {
		t.Errorf("probe streams kept: %v, want %d", kept, len(se.Probes))
	}
	es, err := s.run.ReadJournal()
	if err != nil {
		t.Fatal(err)
	}
	probes := 0
	for _, e := range es {
		if e.Step == "probe" && e.Cell == c.ID && e.Status == rundir.StepOK && e.Data["probe"] != "" {
			probes++
		}
	}
	if probes != len(se.Probes) {
		t.Errorf("journal has %d probes, the search %d", probes, len(se.Probes))
	}
	if b, err := os.ReadFile(filepath.Join(dir, "cell.json")); err != nil || !strings.Contains(string(b), `"capacity_req_per_s": 160`) {
		t.Errorf("cell.json lacks the capacity (%v):\n%s", err, b)
	}
}

// scriptedProbe is the outcome TestSweepSearchCell's search judges: the
// measured one's requests, errors and CPU, achieved at the offered rate
// with a first byte p99 of 10 ms (the SLO's limit is 2 s).
func scriptedProbe(rate float64, measured results.ProbeOutcome) results.ProbeOutcome {
	measured.Total.ReqPerS = rate
	measured.Total.FirstByte = results.Stats{Min: 0.001, Mean: 0.005, P50: 0.005, P95: 0.008, P99: 0.01, P999: 0.01, Max: 0.01}
	return measured
}

// searchTestbed is a one-host testbed whose workload searches from 40 to
// 160 req/s, in probes of 1 s (judged as scriptedProbe says).
func searchTestbed(t *testing.T, url string) *plan.Testbed {
	dir := t.TempDir()
	sc := strings.Replace(labtest.GateScenario, `"operation_count": 400, `, `"run_seconds": 1, `, 1)
	if err := os.WriteFile(filepath.Join(dir, "get.scenario"), []byte(sc), 0o644); err != nil {
		t.Fatal(err)
	}
	src := `testbed "search" {}
host "st" {
  address = "127.0.0.1"
  roles   = ["object", "client"]
  disks "d" { names = ["d1"] }
}
ring "object" {
  part_power = 4
  disks      = "d"
}
service "object-server" { role = "object" }
variant "normal" {}
workload "4K_get" {
  scenario = "get.scenario"
  users    = 4
  clients  = ["st"]
  search {
    slo   = { first_byte_p99 = "2s" }
    from  = 40
    to    = 160
    probe = "1s"
  }
  auth {
    url  = "` + url + `/auth/v1.0"
    user = "t:t"
    key  = "k"
  }
}
`
	tb, diags := decode.LoadSource(filepath.Join(dir, "search.hcl"), []byte(src), decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return tb
}
