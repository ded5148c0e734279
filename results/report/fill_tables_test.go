package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"benchbed/results"
	"benchbed/results/rundir"
)

// fillReport is a report of fillCells' run.
func fillReport() *Report {
	return &Report{Run: &rundir.RunResults{Summary: results.Summary{Run: "r", Testbed: "lab-seed003-fill", Cells: fillCells()}}}
}

// TestFillTablesInEveryFormat: text, markdown and HTML show each
// variant's buckets averaged over its repeats and the other variant's
// change per bucket; the figures include the fill plot.
func TestFillTablesInEveryFormat(t *testing.T) {
	r := fillReport()
	var text, md, page bytes.Buffer
	if err := r.WriteText(&text, false); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteText(&md, true); err != nil {
		t.Fatal(err)
	}
	figs, err := r.Figures()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.WriteHTML(&page, figs); err != nil {
		t.Fatal(err)
	}
	// normal's first bucket: p50 of 11 and 12 ms averaged; tuned's p50
	// there 9.5 ms, 17.4 % less.
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String(), "html": page.String()} {
		for _, want := range []string{"PUT latency by container fill: normal fill (mean of 2 repeats; ms)",
			"PUT latency by container fill: tuned against normal (last byte, ms)", "0..2000", "11.50", "-17.4 %", "p99 tuned"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q", name, want)
			}
		}
	}
	var plotted bool
	for _, f := range figs {
		plotted = plotted || f.Name == "put_latency_by_fill"
	}
	if !plotted || strings.Contains(strings.Join(r.Problems, "\n"), "fill") {
		t.Errorf("figures %d (fill plot %v), problems %v", len(figs), plotted, r.Problems)
	}
}

// TestFillTablesSayWhyNot: repeats with other buckets are not averaged;
// the table says why.
func TestFillTablesSayWhyNot(t *testing.T) {
	r := fillReport()
	r.Run.Summary.Cells[1].Fill = r.Run.Summary.Cells[1].Fill[:4]
	var text bytes.Buffer
	if err := r.WriteText(&text, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "not shown") || !strings.Contains(text.String(), "4 fill buckets, the other repeats 10") {
		t.Errorf("text:\n%s", text.String())
	}
}

// TestFillInJSONReport: report.json carries each variant's averaged buckets.
func TestFillInJSONReport(t *testing.T) {
	var b bytes.Buffer
	if err := fillReport().WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var doc JSONReport
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Fill) != 2 || doc.Fill[1].Variant != "tuned" || doc.Fill[1].Repeats != 2 || len(doc.Fill[1].Buckets) != 10 ||
		doc.Fill[1].Buckets[5].Count != 0 {
		t.Errorf("fill %+v", doc.Fill)
	}
}

// TestFillTablesOfOneVariant: a fill workload that ran on one variant
// only (its variants) has its table and no change against another.
func TestFillTablesOfOneVariant(t *testing.T) {
	r := fillReport()
	var kept []results.Cell
	for _, c := range r.Run.Summary.Cells {
		if c.Variant == "tuned" || c.Workload != "fill" {
			kept = append(kept, c)
		}
	}
	r.Run.Summary.Cells = kept
	var text bytes.Buffer
	if err := r.WriteText(&text, false); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	if !strings.Contains(out, "PUT latency by container fill: tuned fill (mean of 2 repeats; ms)") || strings.Contains(out, "against") ||
		strings.Contains(out, "normal fill") || len(r.Problems) != 0 {
		t.Errorf("problems %v, text:\n%s", r.Problems, out)
	}
}
