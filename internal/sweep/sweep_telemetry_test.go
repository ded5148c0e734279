package sweep

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/internal/agents"
	"benchbed/internal/labtest"
	"benchbed/plan"
	"benchbed/plan/decode"
	"benchbed/plan/render"
	"benchbed/plan/schedule"
	"benchbed/results"
	"benchbed/results/rundir"
	"benchbed/results/telemetry"
)

// teleCell returns a sweeper of the axis testbed with telemetry at 200 ms
// and 1 s runs against a fake Swift (served through wrap), the agents
// in-process, and the plan of its first cell reduced to its telemetry and
// run steps.
func teleCell(t *testing.T, wrap func(http.Handler) http.Handler) (*Sweeper, schedule.CellPlan) {
	t.Helper()
	m := &labtest.Swift{Objects: map[string]map[string]int64{}}
	srv := httptest.NewServer(wrap(m))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "put.scenario"), []byte(axisScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(fmt.Sprintf(axisTestbed, srv.URL), "sweep { repeat = 2 }", `telemetry { interval = "200ms" }`, 1)
	src = strings.Replace(src, `duration     = "300ms"`, `duration     = "1s"`, 1)
	tb, diags := decode.LoadSource(filepath.Join(dir, "tele.hcl"), []byte(src), decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	s := bareSweeper(t)
	s.tb, s.opts.Agents = tb, &agents.Local{}
	c := plan.Expand(tb)[0]
	r, err := render.Render(tb, c.Variant, render.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.made.rend = map[string]*render.Rendering{c.Variant.Name: r}
	cp := schedule.CellSteps(tb, nil, c)
	var steps []schedule.Step
	for _, st := range cp.Steps {
		switch st.Kind {
		case schedule.StepTelemetryStart, schedule.StepRun, schedule.StepTelemetry:
			steps = append(steps, st)
		}
	}
	cp.Steps = steps
	return s, cp
}

// TestCellTelemetry runs one cell with telemetry at 200 ms (the agent
// in-process, on this machine): its samples go to telemetry/st.jsonl, the
// run has samples of its own, and cell.json gets the summary with the
// host's disk resolved and its services present.
func TestCellTelemetry(t *testing.T) {
	s, cp := teleCell(t, func(h http.Handler) http.Handler { return h })
	res, err := s.runCell(context.Background(), cp, false)
	if err != nil {
		t.Fatal(err)
	}
	cdir, _ := s.run.CellDir(cp.Cell.ID)
	checkCellTelemetry(t, cdir, res)
}

// TestFailedRunKeepsTelemetry: a run whose every object PUT fails (503)
// fails the cell, which still gets the telemetry of its run.
func TestFailedRunKeepsTelemetry(t *testing.T) {
	s, cp := teleCell(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPut && strings.Count(r.URL.Path, "/") > 3 {
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	res, err := s.runCell(context.Background(), cp, false)
	if err == nil || res.Status != "failed" {
		t.Fatalf("status %s, err %v: want a failed run", res.Status, err)
	}
	cdir, _ := s.run.CellDir(cp.Cell.ID)
	checkCellTelemetry(t, cdir, res)
}

func checkCellTelemetry(t *testing.T, cdir string, res results.Cell) {
	t.Helper()
	tm := res.Telemetry
	if tm == nil || len(tm.Hosts) != 1 || tm.IntervalS != 0.2 {
		t.Fatalf("telemetry %+v", tm)
	}
	// The 1 s run has samples of its own: at least the one its end cuts
	// (how many 200 ms intervals it held, 5 on an idle machine, is this
	// machine's speed: a loaded one's run lasts longer, its sampler lags).
	if n := tm.Hosts[0].Samples; n < 1 {
		t.Errorf("%d run samples, want some", n)
	}
	if len(tm.Disks) != 1 || tm.Disks[0].Disk != "d1" || tm.Disks[0].Dev == "" || tm.Busiest != "st:d1" {
		t.Errorf("disks %+v, busiest %q", tm.Disks, tm.Busiest)
	}
	// The load agents run in this process here: none is found as a process.
	if len(tm.Services) != 2 || tm.Services[0].Service != agents.LoadAgentService || tm.Services[1].Service != "object-server" {
		t.Errorf("services %+v", tm.Services)
	}
	samples, err := telemetry.ReadSamples(filepath.Join(cdir, rundir.TelemetryDir, "st.jsonl"))
	if err != nil || len(samples) <= tm.Hosts[0].Samples {
		t.Errorf("st.jsonl: %d samples (%v), want the run's and idle ones", len(samples), err)
	}
	b, err := os.ReadFile(filepath.Join(cdir, rundir.CellFile))
	if err != nil || !strings.Contains(string(b), `"busiest_disk": "st:d1"`) {
		t.Errorf("cell.json has no telemetry (%v):\n%s", err, b)
	}
}

func TestWorkingSetMB(t *testing.T) {
	get := `{"name":"g","sizes":[{"name":"a","size_min":1048576,"size_max":3145728},` +
		`{"name":"b","size_min":1048576,"size_max":1048576,"crud_profile":[1,0,0,0]}],` +
		`"initial_files":{"a":10,"b":100},"crud_profile":[0,1,0,0],"run_seconds":1}`
	if got := workingSetMB(&plan.Workload{ScenarioJSON: []byte(get)}); got != 20 {
		t.Errorf("working set %v MB, want 20 (10 files of 2 MiB on average; b is never read)", got)
	}
	if got := workingSetMB(&plan.Workload{ScenarioJSON: []byte(axisScenario)}); got != 0 {
		t.Errorf("a PUT-only workload reads %v MB", got)
	}
}
