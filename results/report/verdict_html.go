package report

import (
	"fmt"
	"path"
	"strings"

	"benchbed/results"
	"benchbed/results/compare"
)

// verdictView is the verdict as report.html shows it first: the run's
// caveats as a list, then a table of each variant against the baseline.
// Every string is text: the template escapes it.
type verdictView struct {
	Caveats  []caveatView
	Baseline string
	Margin   string   // "±2 %"
	Metrics  []string // the metric columns' headings
	Rows     []verdictRow
	Empty    string // says why there is no row
}

// caveatView is one caveat: its kind ("page cache"), bold, and the rest.
type caveatView struct{ Kind, Text string }

// verdictRow is one variant (and workload) against the baseline.
type verdictRow struct {
	Variant, Workload string
	Phase             string // "during the fault": a fault cell's row of that phase
	By                string // the test behind the intervals, said once
	Failed            string // why nothing was decided, "" when it was
	Cells             []verdictCell
	Changes           []confLine
}

// verdictCell is one metric's change, interval and word.
type verdictCell struct {
	Change   string // "+4.1%", bold
	Interval string // "[+2.0, +6.2]"
	Word     string // results.Word*
	Class    string // the badge's class: better, worse, same, undecided
	Reason   string // why not decided, in a few words
	Why      string // the whole reasoning, as the badge's title
}

// confLine is one thing the variant changes: where, what, on which hosts.
type confLine struct{ Where, What, Hosts string }

// badgeClass maps a verdict's word to its badge's class.
var badgeClass = map[string]string{
	results.WordBetter:       "better",
	results.WordWorse:        "worse",
	results.WordNoDifference: "same",
	results.WordUndecided:    "undecided",
}

// newVerdictView is v as the page shows it; nil when there is none.
func newVerdictView(v *compare.RunVerdict) *verdictView {
	if v == nil {
		return nil
	}
	out := &verdictView{Baseline: v.Baseline, Margin: marginText(v.Blocks)}
	for _, c := range v.Caveats {
		out.Caveats = append(out.Caveats, splitCaveat(c))
	}
	for _, m := range compare.ShownMetrics {
		out.Metrics = append(out.Metrics, compare.MetricLabel(m))
	}
	for _, b := range v.Blocks {
		out.Rows = append(out.Rows, newVerdictRow(b))
		out.Rows = append(out.Rows, phaseRows(b)...)
	}
	if len(v.Blocks) == 0 {
		out.Empty = "only the baseline " + v.Baseline + " ran: nothing to compare"
	}
	return out
}

// marginText is the equivalence margin the verdicts used, as the text
// says it: the first change's, else the default.
func marginText(bs []compare.VerdictBlock) string {
	m := results.DefaultMargin * 100
	if len(bs) > 0 && len(bs[0].Changes) > 0 {
		m = bs[0].Changes[0].MarginPct
	}
	return fmt.Sprintf("±%g\u00a0%%", m)
}

// splitCaveat cuts a caveat at its first ": " into its kind and the
// rest; a caveat without one is all text.
func splitCaveat(c string) caveatView {
	kind, text, ok := strings.Cut(c, ": ")
	if !ok {
		return caveatView{Text: c}
	}
	return caveatView{Kind: kind, Text: text}
}

// newVerdictRow is one block's row: a cell for each shown metric (an
// empty one for a metric it has no change of), and its changes.
func newVerdictRow(b compare.VerdictBlock) verdictRow {
	r := verdictRow{Variant: b.Variant, Workload: b.Workload, Failed: b.Failed, Changes: confLines(b)}
	if r.Variant == "" {
		r.Variant = b.Name
	}
	if len(b.Changes) == 0 {
		if r.Failed == "" {
			r.Failed = "no verdict on this workload's figures"
		}
		return r
	}
	for _, m := range compare.ShownMetrics {
		r.Cells = append(r.Cells, metricCell(b.Changes, m))
		if c := changeOf(b.Changes, m); r.By == "" && c != nil {
			r.By = c.By()
			r.Phase = compare.PhaseLabel(c.Phase)
		}
	}
	return r
}

// phaseRows are a fault block's rows of its other phases (before, after
// the fault), under its first: the same variant, no changes repeated.
func phaseRows(b compare.VerdictBlock) []verdictRow {
	var out []verdictRow
	for _, ph := range compare.VerdictPhases[1:] {
		var cs []results.Change
		for _, c := range b.Other {
			if c.Phase == ph {
				cs = append(cs, c)
			}
		}
		if len(cs) == 0 {
			continue
		}
		r := verdictRow{Variant: b.Variant, Workload: b.Workload, Phase: compare.PhaseLabel(ph)}
		for _, m := range compare.ShownMetrics {
			r.Cells = append(r.Cells, metricCell(cs, m))
		}
		out = append(out, r)
	}
	return out
}

// changeOf is the change of metric among cs, nil when none is.
func changeOf(cs []results.Change, metric string) *results.Change {
	for i := range cs {
		if cs[i].Metric == metric {
			return &cs[i]
		}
	}
	return nil
}

// metricCell is the table's cell of metric: its change in percent, the
// interval (none without evidence), the word and why.
func metricCell(cs []results.Change, metric string) verdictCell {
	c := changeOf(cs, metric)
	if c == nil {
		return verdictCell{Change: "–", Word: results.WordUndecided, Class: "undecided", Reason: "no figures"}
	}
	v := verdictCell{Change: "?", Interval: "no interval", Word: c.Word, Class: badgeClass[c.Word], Why: c.Why}
	if c.Evidence != results.EvidenceNone || c.Base != 0 {
		v.Change = fmt.Sprintf("%+.1f%%", c.DeltaPct)
	}
	if c.Evidence != results.EvidenceNone {
		v.Interval = fmt.Sprintf("[%+.1f, %+.1f]", c.LowPct, c.HighPct)
	}
	if c.Word == results.WordUndecided {
		v.Reason = c.Reason
	}
	if (c.Word == results.WordBetter || c.Word == results.WordWorse) && c.Evidence == results.EvidenceBatches {
		v.Reason = "weaker evidence: one run a side"
	}
	return v
}

// confLines are what the variant changes, a line each: every key of
// every conf file, every non-INI line, every ring change; the text's
// lines when the block has no diff.
func confLines(b compare.VerdictBlock) []confLine {
	d := b.Conf
	if d == nil {
		return textLines(b.Changed)
	}
	var out []confLine
	for _, f := range d.Files {
		out = append(out, fileLines(f)...)
	}
	for _, r := range d.Rings {
		out = append(out, confLine{What: r})
	}
	if len(out) == 0 && len(d.Missing) == 0 {
		out = append(out, confLine{What: "nothing in its confs or ring ports (same configuration)"})
	}
	return out
}

// textLines are lines of text, each a change.
func textLines(ls []string) []confLine {
	var out []confLine
	for _, l := range ls {
		out = append(out, confLine{What: l})
	}
	return out
}

// fileLines are one conf file's changes, a line each, its hosts aside.
func fileLines(f compare.ConfFile) []confLine {
	where, hosts := path.Base(f.Path), strings.Join(f.Hosts, ", ")
	var out []confLine
	for _, c := range f.Changes {
		out = append(out, confLine{Where: where + " [" + c.Section + "]", What: c.Text, Hosts: hosts})
	}
	if f.Only != "" {
		out = append(out, confLine{Where: where, What: "only in " + f.Only, Hosts: hosts})
	}
	for _, l := range f.Lines {
		out = append(out, confLine{Where: where, What: l, Hosts: hosts})
	}
	return out
}
