package compare

import (
	"strings"
	"testing"

	"benchbed/results"
	"benchbed/results/rundir"
)

func endpointCell(rps ...float64) *results.Cell {
	c := &results.Cell{Status: "ok"}
	for i, r := range rps {
		c.Endpoints = append(c.Endpoints, results.EndpointSummary{URL: "http://p" + string(rune('1'+i)) + "/auth",
			Total: results.OpSummary{ReqPerS: r, Errors: int64(i), LastByte: results.Stats{P95: 0.01 * float64(i+1)}}})
	}
	return c
}

// Each endpoint's req/s is averaged over a side's cells and lined up with
// the other side's; cells without endpoints give none.
func TestCompareEndpoints(t *testing.T) {
	d := compareEndpoints([]*results.Cell{endpointCell(10, 20), endpointCell(30, 40)}, []*results.Cell{endpointCell(5, 6)})
	if len(d) != 2 || d[0].ReqPerA != 20 || d[1].ReqPerA != 30 || d[0].ReqPerB != 5 || d[1].ErrorsA != 1 || d[1].P95B != 0.02 {
		t.Fatalf("deltas %+v", d)
	}
	var out strings.Builder
	c := &Comparison{A: "runA", B: "runB", Alpha: 0.05, Pairs: []Pair{{A: "rep2 / get", B: "ec42 / get", Endpoints: d}}}
	if err := WriteComparison(&out, c, "text"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Per endpoint", "http://p1/auth", "20.0", "5.0", "http://p2/auth", "30.0", "6.0", "20.00"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
	if compareEndpoints([]*results.Cell{{Status: "ok"}}, []*results.Cell{{Status: "ok"}}) != nil {
		t.Error("cells without endpoints compare endpoints")
	}
}

// A pair of Swift cells (operations, not a command's figures) compares
// their endpoints too.
func TestComparePairHasEndpoints(t *testing.T) {
	cell := func(rps ...float64) *results.Cell {
		c := endpointCell(rps...)
		c.Variant, c.Workload = "normal", "get"
		c.Ops = map[string]results.OpSummary{"GET": {Count: 10, ReqPerS: 1}}
		c.Total = c.Ops["GET"]
		return c
	}
	run := &rundir.RunResults{Dir: t.TempDir()}
	p := comparePair(&group{run: run, variant: "normal", workload: "get", cells: []*results.Cell{cell(10, 20)}},
		&group{run: run, variant: "normal", workload: "get", cells: []*results.Cell{cell(5, 6)}}, CompareOptions{Alpha: 0.05})
	if len(p.Endpoints) != 2 || p.Endpoints[0].ReqPerA != 10 || p.Endpoints[1].ReqPerB != 6 {
		t.Fatalf("the pair's endpoints %+v; want p1 10 vs 5, p2 20 vs 6", p.Endpoints)
	}
}
