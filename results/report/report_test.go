package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"benchbed/results"
	"benchbed/results/rundir"
)

func loadFixture(t *testing.T, cells []fixCell, summary bool) (*Report, results.Summary) {
	t.Helper()
	dir, sum := makeRun(t, cells, summary)
	r, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r, sum
}

// inOrder checks that every want appears in s, each after the previous.
func inOrder(t *testing.T, s string, want ...string) {
	t.Helper()
	at := 0
	for _, w := range want {
		i := strings.Index(s[at:], w)
		if i < 0 {
			t.Fatalf("%q missing (or out of order) after offset %d in:\n%s", w, at, s)
		}
		at += i + len(w)
	}
}

func TestTextReport(t *testing.T) {
	r, sum := loadFixture(t, fixture, true)
	var b bytes.Buffer
	if err := r.WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	c0 := sum.Cells[0].Total
	// Seed 000's table, a row per cell in order, the failed one marked.
	// Seed 000's table, a row per cell in order, the failed one marked,
	// latencies in ms like every other table's.
	inOrder(t, out, "Time to first byte (ms)", "p95", "normal #1", ms(c0.FirstByte.P95),
		strconv.FormatFloat(c0.ReqPerS, 'f', 1, 64), "normal #2", "a&b<i> #1", "a&b<i> #2", "broken #1 (failed)",
		"time to first byte in ms")
	// The per-operation table: count, p99 in ms, in cell order.
	op := sum.Cells[2].Ops["GET"]
	inOrder(t, out, "Per operation", "001-normal-64K_get-r1", "003-a&b<i>-64K_get-r1", "GET",
		strconv.FormatInt(op.Count, 10), ms(op.FirstByte.P99), ms(op.LastByte.P999), "005-broken")
	inOrder(t, out, "Failed operations by cause", "http_503", "3")
	// The repeats: mean ± stddev of req/s, computed here from the cells.
	a, b2 := sum.Cells[0].Total.ReqPerS, sum.Cells[1].Total.ReqPerS
	mean, sd := (a+b2)/2, math.Abs(a-b2)/math.Sqrt2
	inOrder(t, out, "Repeats", "normal", "2/2", f1(mean)+" ± "+f1(sd), "a&b<i>", "2/2", "Per operation")
	for _, gone := range []string{"95th %ile", "in seconds"} {
		if strings.Contains(out, gone) {
			t.Errorf("%q: a latency in seconds", gone)
		}
	}
	inOrder(t, out, "Failed cells", "005-broken-64K_get-r1 (failed): health: stor1: object-server did not answer | exit 1")
	inOrder(t, out, "Hosts", "stor1", "Linux stor1 6.1.0 x86_64", "62.5 GiB", "swift 2.30.1")
	if strings.Contains(out, "MemTotal") {
		t.Errorf("memory shown as /proc/meminfo has it, not in GiB:\n%s", out)
	}
	if strings.Contains(out, "NOTICE") {
		t.Errorf("a complete run got a notice:\n%s", out)
	}
}

func TestMarkdownReport(t *testing.T) {
	r, _ := loadFixture(t, fixture, true)
	var b bytes.Buffer
	if err := r.WriteFormat(&b, FormatMarkdown); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	inOrder(t, out, "# benchbed report: "+hostile, "## Time to first byte", "|", "## Repeats", "## Per operation", "| 001-normal",
		"## Failed cells", `- 005-broken-64K_get-r1 (failed): health: stor1: object-server did not answer \| exit 1`)
}

func TestCSVReport(t *testing.T) {
	r, sum := loadFixture(t, fixture, true)
	var b bytes.Buffer
	if err := r.WriteFormat(&b, FormatCSV); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	if len(recs) != 1+len(sum.Cells) {
		t.Fatalf("%d rows, want a header and one per cell (one op each): %q", len(recs), recs)
	}
	for i, c := range sum.Cells {
		row := recs[i+1]
		op := "GET"
		if c.Status != "ok" {
			op = "total"
		}
		if row[col["cell"]] != c.ID || row[col["op"]] != op || row[col["status"]] != c.Status {
			t.Fatalf("row %d = %q, want cell %s op %s", i+1, row, c.ID, op)
		}
		o := c.Total
		for name, want := range map[string]float64{"req_per_s": o.ReqPerS, "first_byte_p95_s": o.FirstByte.P95,
			"last_byte_p999_s": o.LastByte.P999, "first_byte_max_s": o.FirstByte.Max, "count": float64(o.Count),
			"errors": float64(o.Errors), "duration_s": c.DurationS} {
			got, err := strconv.ParseFloat(row[col[name]], 64)
			if err != nil || got != want {
				t.Errorf("%s %s = %q, want %v", c.ID, name, row[col[name]], want)
			}
		}
	}
	if got := recs[5][col["error"]]; got != sum.Cells[4].Error {
		t.Errorf("failed cell's error = %q", got)
	}
}

func TestJSONReport(t *testing.T) {
	r, sum := loadFixture(t, fixture, true)
	var b bytes.Buffer
	if err := r.WriteFormat(&b, FormatJSON); err != nil {
		t.Fatal(err)
	}
	var doc JSONReport
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Run != sum.Run || doc.Testbed != hostile || len(doc.Cells) != len(sum.Cells) || doc.Partial {
		t.Fatalf("doc = %+v", doc)
	}
	if doc.Cells[2].Ops["GET"].FirstByte != sum.Cells[2].Ops["GET"].FirstByte {
		t.Errorf("cell 3's first byte %+v, want %+v", doc.Cells[2].Ops["GET"].FirstByte, sum.Cells[2].Ops["GET"].FirstByte)
	}
	if len(doc.Repeats) != 2 {
		t.Fatalf("repeats = %+v, want normal and a&b<i>", doc.Repeats)
	}
	g := doc.Repeats[1]
	x, y := sum.Cells[2].Total.FirstByte.P95, sum.Cells[3].Total.FirstByte.P95
	if g.Variant != "a&b<i>" || g.OK != 2 || g.FirstByteP95.Mean != (x+y)/2 ||
		g.FirstByteP95.Min != min(x, y) || g.FirstByteP95.Max != max(x, y) || g.Errors != 6 {
		t.Errorf("a&b<i> repeats = %+v (p95s %v, %v)", g, x, y)
	}
}

func TestFormatsRefuseUnknown(t *testing.T) {
	r, _ := loadFixture(t, fixture[:1], true)
	if err := r.WriteFormat(&bytes.Buffer{}, "yaml"); err == nil || !strings.Contains(err.Error(), "yaml") {
		t.Fatalf("err = %v", err)
	}
}

func TestPartialRun(t *testing.T) {
	r, _ := loadFixture(t, fixture[:3], false)
	if !r.Run.Partial || len(r.Run.Summary.Cells) != 3 || !strings.Contains(r.Title(), "partial") || r.Run.Summary.Testbed != hostile {
		t.Fatalf("partial %v, %d cells, title %q", r.Run.Partial, len(r.Run.Summary.Cells), r.Title())
	}
	var b bytes.Buffer
	if err := r.WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	inOrder(t, b.String(), "(partial)", "NOTICE: partial run: no "+rundir.SummaryFile, "001-normal", "003-a&b<i>")
}

func TestBrokenRuns(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "nope")); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("missing run: %v", err)
	}
	dir, _ := makeRun(t, fixture[:1], true)
	p := filepath.Join(dir, rundir.SummaryFile)
	if err := os.WriteFile(p, []byte(`{"run": "x", "cells": [`), 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("broken summary: %v", err)
	}
	dir, _ = makeRun(t, fixture[:1], false)
	p = filepath.Join(dir, rundir.CellsDir, fixture[0].id, rundir.CellFile)
	if err := os.WriteFile(p, []byte("not json"), 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("broken cell.json: %v", err)
	}
	dir, _ = makeRun(t, fixture[:1], true)
	if err := os.WriteFile(filepath.Join(dir, rundir.JournalFile), []byte("{\ngarbage\n{}\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), rundir.JournalFile) {
		t.Errorf("broken journal: %v", err)
	}
}
