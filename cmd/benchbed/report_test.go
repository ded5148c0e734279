package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"benchbed/results"
	"benchbed/results/rundir"
)

// writeReportRun writes a run of the seed's testbed under runs/ with a
// summary of two cells, the second failed; it returns the run directory.
func writeReportRun(t *testing.T, runs, id string) string {
	t.Helper()
	dir := filepath.Join(runs, "swiftstack-2015", id)
	ok := results.OpSummary{Count: 1200, ReqPerS: 120, FirstByte: results.Stats{Min: 0.006, Max: 0.5, Mean: 0.05, P95: 0.2}}
	sum := results.Summary{Run: id, Testbed: "swiftstack-2015", Cells: []results.Cell{
		{ID: "001-normal-64K_get-r1", Variant: "normal", Workload: "64K_get", Repeat: 1, Status: "ok", DurationS: 10,
			Ops: map[string]results.OpSummary{"GET": ok}, Total: ok},
		{ID: "002-threads_per_disk_1-64K_get-r1", Variant: "threads_per_disk=1", Workload: "64K_get", Repeat: 1,
			Status: "failed", Error: "restart: stor1: object-server failed"},
	}}
	b, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, rundir.SummaryFile), b, 0o640); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestReportFormats(t *testing.T) {
	dir := writeReportRun(t, t.TempDir(), "20261130T010203Z-abcdef")
	code, out, errOut := captureRun(t, "report", dir)
	if code != 0 || !regexp.MustCompile(`normal +│ 6\.00 +│ 500\.00 +│ 50\.00 +│ 0\.00 +│ 200\.00 +│ 120\.0 `).MatchString(out) ||
		!regexp.MustCompile(`threads_per_disk=1 \(failed\) +│ 0\.00 +│ 0\.00 +│ 0\.00 +│ 0\.00 +│ 0\.00 +│ failed: 0\.0 `).MatchString(out) ||
		!strings.Contains(out, "002-threads_per_disk_1-64K_get-r1 (failed): restart: stor1: object-server failed") ||
		!regexp.MustCompile(`002-threads_per_disk_1-64K_get-r1 +│ total +│ 0 +│ failed: 0\.0 `).MatchString(out) {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s", code, out, errOut)
	}
	code, out, _ = captureRun(t, "report", "--format", "csv", dir)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(recs) != 3 || recs[1][0] != "001-normal-64K_get-r1" || recs[1][10] != "120" {
		t.Fatalf("exit %d, %v, csv %q", code, err, recs)
	}
	code, out, _ = captureRun(t, "report", "--format", "json", dir)
	var doc struct {
		Run     string          `json:"run"`
		Cells   []results.Cell  `json:"cells"`
		Repeats json.RawMessage `json:"repeats"`
	}
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil || doc.Run != "20261130T010203Z-abcdef" ||
		len(doc.Cells) != 2 || string(doc.Repeats) != "[]" {
		t.Fatalf("exit %d, %v, json %s", code, err, out)
	}
	code, _, errOut = captureRun(t, "report", "--format", "yaml", dir)
	if code != 2 || !strings.Contains(errOut, `--format "yaml"`) {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

func TestReportByTestbedAndLatest(t *testing.T) {
	runs := t.TempDir()
	writeReportRun(t, runs, "20261130T010203Z-aaaaaa")
	writeReportRun(t, runs, "20261130T020304Z-bbbbbb")
	code, out, errOut := captureRun(t, "report", "--runs-dir", runs, seedFile)
	if code != 0 || !strings.Contains(out, "run 20261130T020304Z-bbbbbb") {
		t.Fatalf("latest: exit %d, stdout %s, stderr %s", code, out, errOut)
	}
	code, out, _ = captureRun(t, "report", "--runs-dir", runs, seedFile, "20261130T010203Z-aaaaaa")
	if code != 0 || !strings.Contains(out, "run 20261130T010203Z-aaaaaa") {
		t.Fatalf("by id: exit %d, stdout %s", code, out)
	}
	code, _, errOut = captureRun(t, "report", "--runs-dir", runs, seedFile, "20991231T000000Z-cccccc")
	if code != 2 || !strings.Contains(errOut, "20991231T000000Z-cccccc") {
		t.Fatalf("missing id: exit %d, stderr %q", code, errOut)
	}
}

// TestReportBrokenRuns: a run it cannot read exits 2; a finished cell
// without its agents' streams, 1.
func TestReportBrokenRuns(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-run")
	code, _, errOut := captureRun(t, "report", missing)
	if code != 2 || !strings.Contains(errOut, missing) {
		t.Fatalf("missing run: exit %d, stderr %q", code, errOut)
	}
	dir := writeReportRun(t, t.TempDir(), "20261130T010203Z-abcdef")
	if err := os.WriteFile(filepath.Join(dir, rundir.SummaryFile), []byte("{"), 0o640); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = captureRun(t, "report", dir)
	if code != 2 || !strings.Contains(errOut, filepath.Join(dir, rundir.SummaryFile)) || strings.Contains(errOut, "panic") {
		t.Fatalf("broken summary: exit %d, stderr %q", code, errOut)
	}
	// An ok cell without agents' streams: everything is written, exit 1.
	dir = writeReportRun(t, t.TempDir(), "20261130T010203Z-abcdef")
	out := filepath.Join(t.TempDir(), "out")
	code, _, errOut = captureRun(t, "report", "--out", out, dir)
	if code != 1 || !strings.Contains(errOut, "001-normal-64K_get-r1") || !strings.Contains(errOut, "no agents' streams") {
		t.Fatalf("no streams: exit %d, stderr %q", code, errOut)
	}
	for _, name := range []string{"report.html", "req_per_s.svg", "req_per_s.png", "report.csv"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
