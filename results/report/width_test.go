package report

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// longestLine is the widest line of s and its width in runes.
func longestLine(s string) (string, int) {
	best, n := "", 0
	for l := range strings.SplitSeq(s, "\n") {
		if w := utf8.RuneCountInString(l); w > n {
			best, n = l, w
		}
	}
	return best, n
}

// The text of a lab run (six variants, their telemetry, hosts of one
// kernel) keeps within 120 columns by default, and the failed cell's
// error, the notices and every table's figures are all still there;
// a wide report keeps its tables whole.
func TestTextWithin120Columns(t *testing.T) {
	r := loadLab(t, labUname)
	var b bytes.Buffer
	if err := r.WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	if l, n := longestLine(b.String()); n > 120 {
		t.Errorf("a line of %d columns:\n%s\nin:\n%s", n, l, b.String())
	}
	inOrder(t, b.String(), "Per operation (latencies in ms)", "fb p50", "lb max", "Telemetry of 001-normal", "note", "BUSIEST; loop5;")
	keyed := regexp.MustCompile(`001-normal-64K_get-r1 +│ GET +│`)
	ops := b.String()[strings.Index(b.String(), "Per operation"):]
	ops = ops[:strings.Index(ops, "Failed operations")]
	if n := len(keyed.FindAllString(ops, -1)); n != 2 {
		t.Errorf("the per-operation table's row of 001-normal's GETs in %d part(s), want 2, each named by cell and op", n)
	}
	r.Width = 1 << 20
	b.Reset()
	if err := r.WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	if _, n := longestLine(b.String()); n <= 120 {
		t.Errorf("--wide: the widest line is %d columns, want the tables whole", n)
	}
}

// A table too wide is split into parts that each begin with its first
// column, or, when wrapping its widest column alone fits, wrapped.
func TestFitTable(t *testing.T) {
	wide := table{Header: []string{"cell", "a", "b", "c"}, Rows: [][]string{
		{"001-normal", strings.Repeat("1", 30), strings.Repeat("2", 30), strings.Repeat("3", 30)}}}
	parts := fitTable(wide, 60)
	if len(parts) != 3 {
		t.Fatalf("%d parts, want 3: %v", len(parts), parts)
	}
	for _, p := range parts {
		if p.Rows[0][0] != "001-normal" || boxWidth(colWidths(p)) > 60 {
			t.Errorf("part %v: want the row's name first, within 60 columns", p)
		}
	}
	note := table{Header: []string{"resource", "mean", "note"}, Rows: [][]string{
		{"cpu", "1.0", strings.Repeat("word ", 30)}}}
	parts = fitTable(note, 80)
	if len(parts) != 1 || boxWidth(colWidths(parts[0])) > 80 || !strings.Contains(parts[0].Rows[0][2], "\n") {
		t.Errorf("a long note: %v, want one table, its note wrapped within 80 columns", parts)
	}
	if got := fitTable(note, 1<<20); len(got) != 1 || got[0].Rows[0][2] != note.Rows[0][2] {
		t.Errorf("a table that fits is changed: %v", got)
	}
	if got := wrapText("abcdefghij kl", 4); got != "abcd\nefgh\nij\nkl" {
		t.Errorf("wrapText: %q", got)
	}
}

// A line of prose too long is wrapped at spaces, its later lines
// indented; a table's line is left alone.
func TestFitLines(t *testing.T) {
	in := "NOTICE: " + strings.Repeat("word ", 30) + "\n│ " + strings.Repeat("x", 50) + " │\n"
	got := fitLines(in, 40)
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if l, n := longestLine(strings.Join(lines[:len(lines)-1], "\n")); n > 40 {
		t.Errorf("prose line of %d columns: %q", n, l)
	}
	if !strings.HasPrefix(lines[1], "  word") || lines[len(lines)-1] != "│ "+strings.Repeat("x", 50)+" │" {
		t.Errorf("fitLines:\n%s", got)
	}
}

// report.html opens on the verdict: the caveats and verdict come before
// any table or plot, each cell's telemetry is folded in a <details>, the
// journal too, and the page cache's warning is said once, in the caveats.
func TestHTMLFoldsPerCellDetail(t *testing.T) {
	r := loadLab(t, labUname)
	out := t.TempDir()
	if _, err := r.WriteDir(out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	inOrder(t, page, `<h2 id="verdict">`, "<b>page cache</b>", `<table class="verdict">`, "against <b>normal</b>", "<table", "<h2>Plots</h2>",
		"proxy1, stor1, stor2, client1: one kernel", `<details class="telemetry">`, "<summary>Telemetry of 001-normal",
		`id="telemetry_cpu_001-normal-64K_get-r1"`, "</details>", "Journal", "<details><summary>")
	if n, m := strings.Count(page, `<details class="telemetry">`), len(r.Run.Summary.Cells); n != m {
		t.Errorf("%d folded telemetry sections, want %d", n, m)
	}
	if strings.Contains(page, `class="notice">Page cache`) || strings.Count(page, "fits in the object hosts") != 1 {
		t.Error("the page cache's warning is repeated beside the caveats")
	}
}
