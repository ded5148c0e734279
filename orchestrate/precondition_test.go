package orchestrate

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/load"
	"benchbed/load/prefill"
	"benchbed/plan"
	"benchbed/plan/scenario"
	"benchbed/results"
)

// gateTestbed has no prefill block; its workload reads 300 initial files
// of 4 KiB over 3 containers. %s is the fake Swift's URL, %s the
// workload's extra attributes.
const gateTestbed = `
testbed "gate" {}
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
  operation_count = 400
  clients  = ["st"]
  %s
  auth {
    url  = "%s/auth/v1.0"
    user = "t:t"
    key  = "k"
  }
}
`

const gateScenario = `{"name": "4K_get", "sizes": [{"name": "4KiB", "size_min": 4096, "size_max": 4096}],
 "initial_files": {"4KiB": 300}, "operation_count": 400, "container_base": "gate", "container_count": 3,
 "crud_profile": [0, 1, 0, 0], "user_count": 4}`

func gateTB(t *testing.T, url, extra string) *plan.Testbed {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "get.scenario"), []byte(gateScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	tb, diags := plan.LoadSource(filepath.Join(dir, "gate.hcl"), []byte(fmt.Sprintf(gateTestbed, extra, url)), plan.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return tb
}

// TestPreconditionRefusesMissingInitialObjects: without a prefill block,
// the sweep's precondition lists the containers (no PUT, no container
// created) and refuses, naming the workload, the containers short and the
// counts, and how to prefill; once the objects are there it passes, and
// one object gone is named again.
func TestPreconditionRefusesMissingInitialObjects(t *testing.T) {
	m := &memSwift{objects: map[string]map[string]int64{}}
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	tb := gateTB(t, srv.URL, "")
	hosts := &localPrefillAgents{started: map[string]int{}}
	err := checkInitial(context.Background(), tb, hosts, nil)
	var pe *preconditionError
	if !errors.As(err, &pe) || len(m.objects) != 0 {
		t.Fatalf("empty account: %v; %d containers created", err, len(m.objects))
	}
	for _, want := range []string{"workload 4K_get: 300 of its 300 initial objects are missing",
		"gate_000000_default_policy holds 0 of 100", "gate_000002_default_policy holds 0 of 100",
		"add `prefill { workloads = [\"4K_get\"] }` to " + tb.File, "nothing was changed"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal lacks %q:\n%v", want, err)
		}
	}
	sc, _ := scenario.Parse(tb.Workloads[0].ScenarioJSON)
	st, err := prefill.NewHTTPStore(load.AuthSpec{URL: srv.URL + "/auth/v1.0", User: "t:t", Key: "k"}, 4, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := prefill.Initial(context.Background(), sc, st, prefill.Options{Concurrency: 4}, nil); err != nil {
		t.Fatal(err)
	}
	if err := checkInitial(context.Background(), tb, hosts, nil); err != nil {
		t.Fatalf("every object in place: %v", err)
	}
	m.mu.Lock()
	delete(m.objects["gate_000001_default_policy"], "4KiB_000002")
	m.mu.Unlock()
	err = checkInitial(context.Background(), tb, hosts, nil)
	if err == nil || !strings.Contains(err.Error(), "1 of its 300 initial objects are missing (gate_000001_default_policy holds 99 of 100)") {
		t.Fatalf("one object gone: %v", err)
	}
}

func TestReadsInitial(t *testing.T) {
	for crud, want := range map[string]bool{"[1, 0, 0, 0]": false, "[0, 1, 0, 0]": true, "[1, 0, 1, 0]": true, "[1, 0, 0, 1]": true} {
		sc, err := scenario.Parse([]byte(strings.Replace(gateScenario, "[0, 1, 0, 0]", crud, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if sc.ReadsInitial() != want {
			t.Errorf("%s: ReadsInitial = %v", crud, !want)
		}
	}
}

// failingGets answers 503 to every GET of an object whose name ends in 7
// (a tenth of them): the cluster failing a share of the requests.
type failingGets struct{ *memSwift }

func (f failingGets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && strings.Count(r.URL.Path, "/") == 4 && strings.HasSuffix(r.URL.Path, "7") {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	f.memSwift.ServeHTTP(w, r)
}

// TestSweepGateFailsACell: a cell whose GETs fail one time in ten (above
// the default 1 %) is failed with its top cause, its row's req/s marked
// failed; the same workload with max_error_rate = "20%" passes.
func TestSweepGateFailsACell(t *testing.T) {
	m := &memSwift{objects: map[string]map[string]int64{}}
	srv := httptest.NewServer(failingGets{m})
	t.Cleanup(srv.Close)
	for _, tc := range []struct {
		extra string
		fail  bool
	}{{"", true}, {`max_error_rate = "20%"`, false}} {
		tb := gateTB(t, srv.URL, tc.extra)
		s := bareSweeper(t)
		s.tb, s.opts.Agents = tb, &localAgents{}
		c := plan.Expand(tb)[0]
		dir, err := s.run.CellDir(c.ID)
		if err != nil {
			t.Fatal(err)
		}
		var res results.Cell
		err = s.measure(context.Background(), c, dir, &res)
		var g *results.GateError
		if tc.fail != errors.As(err, &g) || tc.fail != (res.Status == results.StatusFailed) || res.Total.Errors == 0 {
			t.Fatalf("%q: err %v, status %s, %d errors", tc.extra, err, res.Status, res.Total.Errors)
		}
		if !tc.fail {
			continue
		}
		if !strings.Contains(res.Error, "is above max_error_rate 1%; top causes: http_503=") {
			t.Errorf("cell error %q", res.Error)
		}
		s.cells = []cellResult{{cell: c, res: res}}
		var tbl strings.Builder
		if err := s.Table(&tbl); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(tbl.String(), "| normal (failed) |") || !strings.Contains(tbl.String(), "| failed: ") ||
			!strings.Contains(tbl.String(), "failed "+c.ID+": error rate") {
			t.Errorf("table:\n%s", tbl.String())
		}
	}
}
