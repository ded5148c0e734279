package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"benchbed/results"
)

// policyProxies are policies-lab.hcl's two proxies as the GET workloads'
// endpoints list them: proxy1 and the second proxy server on stor2.
var policyProxies = []string{labAuthURL, "http://198.18.0.22:8080/auth/v1.0"}

// policyGETCells are the cells whose workload spreads its agents over both
// proxies.
var policyGETCells = []string{"64K_get@rep2", "64K_get@ec42"}

// checkEndpointCells wants each GET cell to record both proxies, in the
// workload's order, each with its one agent, some GETs, no error, req/s
// and last-byte percentiles, their counts adding up to the cell's; it logs
// the per-endpoint rows.
func checkEndpointCells(t *testing.T, by map[string]results.Cell) {
	t.Helper()
	var tab strings.Builder
	fmt.Fprintf(&tab, "%-14s %-36s %6s %7s %8s %7s %8s %8s %8s\n", "workload", "endpoint", "agents", "GETs", "req/s", "errors", "p50 ms", "p95 ms", "p99 ms")
	for _, w := range policyGETCells {
		c := by[w]
		if len(c.Endpoints) != len(policyProxies) {
			t.Errorf("cell %s: %d endpoints recorded (%+v), want both proxies", c.ID, len(c.Endpoints), c.Endpoints)
			continue
		}
		var sum int64
		for i, e := range c.Endpoints {
			g, tot := e.Ops["GET"], e.Total
			sum += tot.Count
			if e.URL != policyProxies[i] || e.Agents != 1 || g.Count == 0 || tot.Errors != 0 || g.ReqPerS <= 0 ||
				g.LastByte.P50 <= 0 || g.LastByte.P99 < g.LastByte.P50 {
				t.Errorf("cell %s, endpoint %d: %+v; want %s with 1 agent, GETs at some req/s, no error, p99 >= p50 > 0",
					c.ID, i, e, policyProxies[i])
			}
			fmt.Fprintf(&tab, "%-14s %-36s %6d %7d %8.1f %7d %8.1f %8.1f %8.1f\n", w, e.URL, e.Agents, g.Count, g.ReqPerS,
				tot.Errors, g.LastByte.P50*1000, g.LastByte.P95*1000, g.LastByte.P99*1000)
		}
		if sum != c.Total.Count {
			t.Errorf("cell %s: the endpoints' operations add up to %d, the cell's to %d", c.ID, sum, c.Total.Count)
		}
	}
	t.Logf("per endpoint (variant normal):\n%s", tab.String())
}

// checkEndpointReport wants the report's per-endpoint table to have a GET
// row of each proxy for each GET cell.
func checkEndpointReport(t *testing.T, report string, by map[string]results.Cell) {
	t.Helper()
	if !strings.Contains(report, "Per endpoint (each proxy's share") {
		t.Errorf("the report has no per-endpoint table:\n%s", report)
		return
	}
	var rows []string
	for _, l := range strings.Split(report, "\n") {
		for _, w := range policyGETCells {
			for _, u := range policyProxies {
				if strings.Contains(l, by[w].ID) && strings.Contains(l, u) && strings.Contains(l, "GET") {
					rows = append(rows, strings.TrimSpace(l))
				}
			}
		}
	}
	if len(rows) != len(policyGETCells)*len(policyProxies) {
		t.Errorf("the report's per-endpoint table has %d GET rows of the GET cells' proxies, want %d:\n%s",
			len(rows), len(policyGETCells)*len(policyProxies), report)
	}
	t.Logf("the report's per-endpoint rows:\n%s", strings.Join(rows, "\n"))
}

// checkEndpointCompare compares the replicated GET cell with the
// erasure-coded one (benchbed compare RUN:CELL RUN:CELL): its per-endpoint
// table has a row for each proxy.
func checkEndpointCompare(t *testing.T, lab *Env, run string, by map[string]results.Cell) {
	t.Helper()
	out, errOut, err := lab.Benchbed(t, "compare", run+":"+by["64K_get@rep2"].ID, run+":"+by["64K_get@ec42"].ID)
	if err != nil {
		t.Fatalf("benchbed compare of the rep2 and ec42 GET cells: %v\n%s\n%s", err, out, errOut)
	}
	_, table, ok := strings.Cut(out, "Per endpoint (total")
	for _, u := range policyProxies {
		if !ok || !strings.Contains(table, u) {
			t.Errorf("compare's per-endpoint table lacks %s:\n%s", u, out)
		}
	}
	t.Logf("benchbed compare 64K_get@rep2 64K_get@ec42, per endpoint:%s", table)
}

// logStepTimes logs the sweep's time by step kind from its journal (each
// started-to-end span), longest first: where the test's seconds go.
func logStepTimes(t *testing.T, run string) {
	t.Helper()
	f, err := os.Open(filepath.Join(run, "journal.jsonl"))
	if err != nil {
		t.Errorf("journal: %v", err)
		return
	}
	defer f.Close()
	type entry struct {
		Time   time.Time `json:"time"`
		Step   string    `json:"step"`
		Cell   string    `json:"cell"`
		Host   string    `json:"host"`
		Status string    `json:"status"`
	}
	began := map[string]time.Time{}
	took := map[string]time.Duration{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var e entry
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Host != "" {
			continue
		}
		k := e.Cell + "/" + e.Step
		if e.Status == "started" {
			began[k] = e.Time
		} else if b, ok := began[k]; ok {
			took[e.Step] += e.Time.Sub(b)
			delete(began, k)
		}
	}
	steps := make([]string, 0, len(took))
	for s := range took {
		steps = append(steps, s)
	}
	sort.Slice(steps, func(i, j int) bool { return took[steps[i]] > took[steps[j]] })
	var b strings.Builder
	for _, s := range steps {
		fmt.Fprintf(&b, "  %-16s %6.1f s\n", s, took[s].Seconds())
	}
	t.Logf("the sweep's steps, summed over its cells:\n%s", b.String())
}
