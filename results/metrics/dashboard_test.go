package metrics

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"benchbed/results/metrics/metricstest"
)

// dashboardFile is the Grafana dashboard shipped with benchbed.
const dashboardFile = "../../docs/grafana/benchbed.json"

var (
	seriesRE  = regexp.MustCompile(`\bbenchbed_[a-z0-9_]+`)
	matcherRE = regexp.MustCompile(`([a-z_]+)\s*(=~|!~|!=|=)\s*"`)
	byRE      = regexp.MustCompile(`\bby \(([^)]*)\)`)
	legendRE  = regexp.MustCompile(`\{\{\s*([a-z_]+)\s*\}\}`)
	valuesRE  = regexp.MustCompile(`label_values\(\s*benchbed_[a-z_]+\s*,\s*([a-z_]+)\s*\)`)
)

// TestDashboardNamesTheExportersSeries checks each query of the shipped
// dashboard: every series it names is one the Aggregator writes, every
// label it matches, groups by or shows in a legend is one it sets, and
// the panels cover req/s, both latencies, errors by cause, the phases and
// the hosts.
func TestDashboardNamesTheExportersSeries(t *testing.T) {
	qs := metricstest.Dashboard(t, dashboardFile)
	names, labels := SeriesNames(), append(LabelNames(), "__name__")
	used := map[string]bool{}
	for _, q := range qs {
		found := seriesRE.FindAllString(q.Expr, -1)
		if len(found) == 0 {
			t.Errorf("%s: %q names no benchbed series", q.Where, q.Expr)
		}
		for _, s := range found {
			used[s] = true
			if !slices.Contains(names, s) {
				t.Errorf("%s: series %s is none the exporter writes", q.Where, s)
			}
		}
		var ls []string
		for _, m := range matcherRE.FindAllStringSubmatch(q.Expr, -1) {
			ls = append(ls, m[1])
		}
		for _, m := range byRE.FindAllStringSubmatch(q.Expr, -1) {
			for _, l := range strings.Split(m[1], ",") {
				ls = append(ls, strings.TrimSpace(l))
			}
		}
		for _, m := range legendRE.FindAllStringSubmatch(q.Legend, -1) {
			ls = append(ls, m[1])
		}
		for _, m := range valuesRE.FindAllStringSubmatch(q.Expr, -1) {
			ls = append(ls, m[1])
		}
		for _, l := range ls {
			if !slices.Contains(labels, l) {
				t.Errorf("%s: label %q is none the exporter sets", q.Where, l)
			}
		}
	}
	for _, want := range []string{SeriesReqPerS, SeriesFirstByte, SeriesLastByte, SeriesErrPerS, SeriesState,
		SeriesHostCPUBusy, SeriesHostDiskUtil} {
		if !used[want] {
			t.Errorf("the dashboard shows no %s", want)
		}
	}
}
