package sweep

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/internal/agents"
	"benchbed/internal/labtest"
	"benchbed/plan"
	"benchbed/plan/decode"
	"benchbed/plan/scenario"
	"benchbed/results"
	"benchbed/results/rundir"
)

// axisTestbed is a testbed whose one workload sweeps container_count over
// a scenario file, two repeats each; the hosts are never contacted (the
// agents run in-process against a memSwift).
const axisTestbed = `
testbed "axis" {}
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
workload "containers" {
  for_each     = [1, 3]
  scenario     = "put.scenario"
  scenario_set = { container_count = each.value }
  users        = 2
  duration     = "300ms"
  clients      = ["st"]
  auth {
    url  = "%s/auth/v1.0"
    user = "t:t"
    key  = "k"
  }
}
sweep { repeat = 2 }
`

const axisScenario = `{"name": "put1", "sizes": [{"name": "1B", "size_min": 1, "size_max": 1}],
 "initial_files": {"1B": 1}, "run_seconds": 60, "container_base": "axis", "container_count": 100,
 "crud_profile": [1, 0, 0, 0], "user_count": 8}`

// TestSweepAxisPointsAndRepeats measures every cell of a workload axis
// with the real agent code against a fake Swift: each axis point's agents
// get the scenario with its own container_count (and create exactly those
// containers), summary.json keeps one cell per repeat with its params, and
// the table has one row per axis point averaging its repeats.
func TestSweepAxisPointsAndRepeats(t *testing.T) {
	m := &labtest.Swift{Objects: map[string]map[string]int64{}}
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "put.scenario"), []byte(axisScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	tb, diags := decode.LoadSource(filepath.Join(dir, "axis.hcl"), []byte(fmt.Sprintf(axisTestbed, srv.URL)), decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	s := bareSweeper(t)
	la := &agents.Local{}
	s.tb, s.opts.Agents = tb, la
	for _, c := range plan.Expand(tb) {
		cdir, err := s.run.CellDir(c.ID)
		if err != nil {
			t.Fatal(err)
		}
		var res results.Cell
		if err := s.measure(context.Background(), c, cdir, &res, nil); err != nil {
			t.Fatalf("cell %s: %v", c.ID, err)
		}
		s.cells = append(s.cells, cellResult{cell: c, res: res})
	}
	checkAxisJobs(t, la, m)
	sum, err := s.writeSummary()
	if err != nil {
		t.Fatal(err)
	}
	checkAxisSummary(t, sum)
	var tbl strings.Builder
	if err := s.Table(&tbl); err != nil {
		t.Fatal(err)
	}
	checkAxisTable(t, tbl.String(), sum)
}

// checkAxisJobs checks the container_count each cell's agent got, in cell
// order, and the containers the fake Swift saw created.
func checkAxisJobs(t *testing.T, la *agents.Local, m *labtest.Swift) {
	t.Helper()
	var counts []int
	for _, j := range la.Jobs {
		sc, err := scenario.Parse(j.Scenario)
		if err != nil {
			t.Fatal(err)
		}
		counts = append(counts, sc.ContainerCount)
		if sc.UserCount != 8 || sc.CrudProfile[0] != 1 || sc.ContainerBase != "axis" {
			t.Errorf("job %s: the file's other fields changed: %+v", j.Agent, sc)
		}
	}
	if fmt.Sprint(counts) != "[1 1 3 3]" {
		t.Errorf("agents' container_count by cell %v, want [1 1 3 3]", counts)
	}
	m.Mu.Lock()
	defer m.Mu.Unlock()
	if len(m.Objects) != 3 {
		t.Errorf("containers created: %d, want 3 (axis_000000..axis_000002)", len(m.Objects))
	}
}

// checkAxisSummary checks one cell per repeat, each with its axis point.
func checkAxisSummary(t *testing.T, sum *results.Summary) {
	t.Helper()
	if len(sum.Cells) != 4 {
		t.Fatalf("%d cells in %s, want 4 (2 points x 2 repeats)", len(sum.Cells), rundir.SummaryFile)
	}
	for i, c := range sum.Cells {
		n := []string{"1", "1", "3", "3"}[i]
		if c.Status != "ok" || c.Repeat != i%2+1 || c.Workload != "containers="+n ||
			c.Params["container_count"] != n || c.Params["containers"] != n || c.Total.Count == 0 {
			t.Errorf("cell %d: %+v", i, c)
		}
	}
	b, err := json.Marshal(sum.Cells[0])
	if err != nil || !strings.Contains(string(b), `"params":{"container_count":"1","containers":"1"}`) {
		t.Errorf("cell JSON %s, %v", b, err)
	}
}

// checkAxisTable checks one row per axis point with the mean req/s of its
// two repeats, as summary.json has them.
func checkAxisTable(t *testing.T, tbl string, sum *results.Summary) {
	t.Helper()
	rows := 0
	for _, l := range strings.Split(tbl, "\n") {
		if strings.Contains(l, "| normal / containers=") {
			rows++
		}
	}
	if rows != 2 || !strings.Contains(tbl, results.RepeatLegend) {
		t.Errorf("want 2 rows (one per axis point) and the legend:\n%s", tbl)
	}
	for i, point := range []string{"containers=1", "containers=3"} {
		a, b := sum.Cells[2*i].Total, sum.Cells[2*i+1].Total
		want := fmt.Sprintf("| normal / %s | 2/2 |", point)
		mean := fmt.Sprintf("| %.1f |", (a.ReqPerS+b.ReqPerS)/2)
		line := strings.Join(strings.Fields(lineWith(tbl, point+" |")), " ")
		if !strings.Contains(line, want) || !strings.Contains(line, mean) {
			t.Errorf("row of %s: %q; want %q and mean req/s %s", point, line, want, mean)
		}
	}
}

// lineWith returns the first line of text that contains s.
func lineWith(text, s string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}
