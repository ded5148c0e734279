package rundir

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/results"
)

func writeJSONFile(t *testing.T, p string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o640); err != nil {
		t.Fatal(err)
	}
}

func TestReadRunSummary(t *testing.T) {
	dir := t.TempDir()
	sum := results.Summary{Run: "20261130T010203Z-abcdef", Testbed: "lab", Cells: []results.Cell{
		{ID: "001-normal-64K_get-r1", Variant: "normal", Workload: "64K_get", Repeat: 1, Status: "ok"},
		{ID: "002-servers_per_port=1-64K_get-r1", Variant: "servers_per_port=1", Workload: "64K_get", Repeat: 1,
			Status: "failed", Error: "health: stor1: object-server did not answer"},
	}}
	writeJSONFile(t, filepath.Join(dir, SummaryFile), sum)
	r, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Partial || len(r.Summary.Cells) != 2 || r.Summary.Cells[1].Error == "" {
		t.Fatalf("read %+v", r)
	}
	for ref, want := range map[string]string{
		"001-normal-64K_get-r1": "001-normal-64K_get-r1", "2": "002-servers_per_port=1-64K_get-r1",
		"002": "002-servers_per_port=1-64K_get-r1", "normal": "001-normal-64K_get-r1",
	} {
		c, err := r.FindCell(ref)
		if err != nil || c.ID != want {
			t.Errorf("FindCell(%q) = %v, %v; want %s", ref, c, err, want)
		}
	}
	if _, err := r.FindCell("nope"); err == nil || !strings.Contains(err.Error(), "001-normal-64K_get-r1") {
		t.Errorf("FindCell(nope) = %v; want an error listing the cells", err)
	}
	if got := r.CellDir(&r.Summary.Cells[1]); got != filepath.Join(dir, CellsDir, "002-servers_per_port=1-64K_get-r1") {
		t.Errorf("CellDir = %s", got)
	}
}

func TestReadRunPartialFromCells(t *testing.T) {
	dir := t.TempDir()
	writeJSONFile(t, filepath.Join(dir, CellsDir, "002-b-w-r1", CellFile), results.Cell{Variant: "b", Workload: "w", Status: "ok"})
	writeJSONFile(t, filepath.Join(dir, CellsDir, "001-a-w-r1", CellFile), results.Cell{ID: "001-a-w-r1", Variant: "a", Workload: "w", Status: "ok"})
	if err := os.MkdirAll(filepath.Join(dir, CellsDir, "003-c-w-r1"), 0o750); err != nil { // never finished
		t.Fatal(err)
	}
	r, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Partial || len(r.Summary.Cells) != 2 || r.Summary.Cells[0].ID != "001-a-w-r1" || r.Summary.Cells[1].ID != "002-b-w-r1" {
		t.Fatalf("read %+v", r.Summary)
	}
	if _, err := r.FindCell("b"); err != nil {
		t.Error(err)
	}
}

func TestReadRunErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadRun(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing run was read")
	}
	if _, err := ReadRun(dir); err == nil || !strings.Contains(err.Error(), "no cell") {
		t.Errorf("an empty run: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, SummaryFile), []byte("{"), 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRun(dir); err == nil || !strings.Contains(err.Error(), SummaryFile) {
		t.Errorf("a broken summary: %v", err)
	}
}

func TestFindCellAmbiguous(t *testing.T) {
	r := &RunResults{Summary: results.Summary{Run: "x", Cells: []results.Cell{
		{ID: "001-a-w-r1", Variant: "a"}, {ID: "002-a-w-r2", Variant: "a"},
	}}}
	if _, err := r.FindCell("a"); err == nil || !strings.Contains(err.Error(), "2 cells") {
		t.Errorf("FindCell(a) = %v; want ambiguous", err)
	}
}
