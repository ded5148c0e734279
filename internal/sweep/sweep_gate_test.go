package sweep

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"benchbed/internal/agents"
	"benchbed/internal/labtest"
	"benchbed/plan"
	"benchbed/results"
)

// failingGets answers 503 to every GET of an object whose name ends in 7
// (a tenth of them): the cluster failing a share of the requests.
type failingGets struct{ *labtest.Swift }

func (f failingGets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && strings.Count(r.URL.Path, "/") == 4 && strings.HasSuffix(r.URL.Path, "7") {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	f.Swift.ServeHTTP(w, r)
}

// TestSweepGateFailsACell: a cell whose GETs fail one time in ten (above
// the default 1 %) is failed with its top cause, its row's req/s marked
// failed; the same workload with max_error_rate = "20%" passes.
func TestSweepGateFailsACell(t *testing.T) {
	m := &labtest.Swift{Objects: map[string]map[string]int64{}}
	srv := httptest.NewServer(failingGets{m})
	t.Cleanup(srv.Close)
	for _, tc := range []struct {
		extra string
		fail  bool
	}{{"", true}, {`max_error_rate = "20%"`, false}} {
		tb := labtest.GateTestbed(t, srv.URL, tc.extra)
		s := bareSweeper(t)
		s.tb, s.opts.Agents = tb, &agents.Local{}
		c := plan.Expand(tb)[0]
		dir, err := s.run.CellDir(c.ID)
		if err != nil {
			t.Fatal(err)
		}
		var res results.Cell
		err = s.measure(context.Background(), c, dir, &res, nil)
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
