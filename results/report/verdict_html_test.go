package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/internal/golden"
	"benchbed/results"
	"benchbed/results/compare"
)

// samples are n values around mean, spread ±spread, of one kind.
func samples(kind string, mean, spread float64, n int) results.Samples {
	s := results.Samples{Kind: kind}
	for i := range n {
		s.Values = append(s.Values, mean+spread*float64(i%3-1))
	}
	return s
}

// decided is Decide's change of metric from base to value, the samples
// of the kind and spread given.
func decided(metric, kind string, base, value, spread float64, n int) results.Change {
	return results.Decide(metric, samples(kind, base, spread, n), samples(kind, value, spread, n), results.VerdictOptions{})
}

// strp is a pointer to s, as a conf change's values are.
func strp(s string) *string { return &s }

// craftedConf changes a key of one INI file, two lines of another (one
// holding markup) and the ring.
func craftedConf() *compare.ConfDiff {
	return &compare.ConfDiff{Files: []compare.ConfFile{{Hosts: []string{"stor1", "stor2"}, Path: "/etc/swift/object-server.conf",
		Changes: []compare.ConfChange{{Section: "DEFAULT", Key: "workers", Old: strp("2"), New: strp("4"), Text: "workers: 2 -> 4"}}},
		{Hosts: []string{"proxy1"}, Path: "/etc/rsyslog.d/swift.conf", Lines: []string{"-a", "+<b>"}}},
		Rings: []string{"ring object: one port per host (6200) -> one port per disk from 6210"}}
}

// craftedVerdict has a block of every kind the table shows: better, no
// difference and not decided over repeats; worse over batch means; no
// interval at all; a failed side; a variant and caveat holding markup.
func craftedVerdict() *compare.RunVerdict {
	rep, bat := results.EvidenceRepeats, results.EvidenceBatches
	short := results.Samples{Kind: bat, Reason: "run too short", Why: "one run of 2 s"}
	return &compare.RunVerdict{Baseline: "normal", Caveats: []string{"page cache: reads measure memory", "no kind here <script>"},
		Blocks: []compare.VerdictBlock{
			{Name: "workers=4 / 64K_get", Variant: "workers=4", Workload: "64K_get", Conf: craftedConf(), Changes: []results.Change{
				decided("req/s", rep, 100, 120, 1, 5), decided(results.MetricFirstP99, rep, 50, 50.1, 0.05, 5),
				decided(results.MetricLastP99, rep, 50, 52, 20, 3)}},
			{Name: "<script>x</script> / 64K_get", Variant: "<script>x</script>", Workload: "64K_get", Conf: &compare.ConfDiff{},
				Changes: []results.Change{decided("req/s", bat, 100, 80, 1, 10), decided(results.MetricFirstP99, bat, 50, 60, 1, 10),
					results.Decide(results.MetricLastP99, short, results.Samples{Kind: bat}, results.VerdictOptions{})}},
			{Name: "broken / 64K_get (failed)", Variant: "broken", Workload: "64K_get", Failed: "a side failed: no figures to decide on",
				Changed: []string{"object-server.conf (stor1): [DEFAULT] workers: 2 -> 3"}},
		}}
}

// renderVerdict is v's section of the page.
func renderVerdict(t *testing.T, v *compare.RunVerdict) string {
	t.Helper()
	var b bytes.Buffer
	if err := page.ExecuteTemplate(&b, "verdict", newVerdictView(v)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The verdict table as the page has it, byte for byte.
func TestVerdictTableGolden(t *testing.T) {
	golden.Check(t, "verdict_table.html", []byte(renderVerdict(t, craftedVerdict())))
}

// A row a block, its test said once; a badge a metric with its word in
// text, each word's class; the failed side one cell across the metrics;
// the changes a line each.
func TestVerdictTableCounts(t *testing.T) {
	h := renderVerdict(t, craftedVerdict())
	for s, n := range map[string]int{`<tr><td class="variant">`: 3, `<td class="metric">`: 6, `colspan="3"`: 1,
		`class="badge better"`: 1, `class="badge worse"`: 2, `class="badge same"`: 1, `class="badge undecided"`: 3,
		">better</span>": 1, ">worse</span>": 2, ">no difference</span>": 1, ">not decided</span>": 3,
		"Welch&#39;s t over 5&#43;5 repeats": 1, "weaker evidence: one run a side": 2, "<li>": 2, "<div>": 6} {
		if got := strings.Count(h, s); got != n {
			t.Errorf("%q %d times, want %d", s, got, n)
		}
	}
}

// The caveats, the header naming the baseline and margin, each row's
// figures, a not decided's reason beside its badge and its reasoning as
// the badge's title, in order; markup escaped.
func TestVerdictTable(t *testing.T) {
	h := renderVerdict(t, craftedVerdict())
	inOrder(t, h, "<li><b>page cache</b>: reads measure memory", "<li>no kind here &lt;script&gt;",
		"<caption>against <b>normal</b>; 95&nbsp;% intervals; no difference = within ±2", "<th>req/s</th><th>first-byte p99</th><th>last-byte p99</th><th>what it changes</th>",
		"<b>workers=4</b> / 64K_get", "<b>&#43;20.0%</b>", `title="too few repeats (3 and 3): too noisy`, "<small>too few repeats</small>",
		`<span class="where" title="on stor1, stor2">object-server.conf [DEFAULT]</span> workers: 2 -&gt; 4</div>`,
		"swift.conf</span> &#43;&lt;b&gt;</div>", "<div>ring object: one port per host",
		"<b>&lt;script&gt;x&lt;/script&gt;</b>", "<b>-20.0%</b>", "<b>?</b> <small>no interval</small>", "<small>run too short</small>",
		"same configuration", "<b>broken</b>", "a side failed: no figures to decide on", "<div>object-server.conf (stor1): [DEFAULT] workers: 2 -&gt; 3</div>")
	if strings.Contains(h, "<script") || strings.Contains(h, "<b>x") {
		t.Errorf("markup unescaped:\n%s", h)
	}
}

// Only the baseline ran: no table, a line saying so.
func TestVerdictTableOnlyBaseline(t *testing.T) {
	if h := renderVerdict(t, &compare.RunVerdict{Baseline: "normal"}); strings.Contains(h, "<table") || !strings.Contains(h, "<p>only the baseline normal ran: nothing to compare</p>") {
		t.Errorf("only the baseline:\n%s", h)
	}
}

// A run without a verdict (older, or one it could not decide) still has
// its page, without a verdict section.
func TestHTMLWithoutVerdict(t *testing.T) {
	r, _ := loadFixture(t, fixture, true)
	r.Verdict = nil
	out := t.TempDir()
	if _, err := r.WriteDir(out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if page := string(b); strings.Contains(page, `id="verdict"`) || !strings.Contains(page, "<h2>Plots</h2>") {
		t.Errorf("a page without a verdict:\n%s", page)
	}
}
