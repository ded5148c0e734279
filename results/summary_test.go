package results

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./results -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestCellJSONGolden(t *testing.T) {
	c := Cell{Variant: "servers_per_port=2", Workload: "64K_get", Repeat: 1, Status: "ok",
		DurationS: 300, Ops: map[string]OpSummary{"GET": {ReqPerS: 2523.94, Errors: 12,
			FirstByte: Stats{Min: 0.0071, Max: 3.1404, Mean: 0.23749, StdDev: 0.158, P95: 0.549}}}}
	c.Total = c.Ops["GET"]
	got, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "cell.json", append(got, '\n'))
	var back map[string]any
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	fb := back["ops"].(map[string]any)["GET"].(map[string]any)["first_byte"].(map[string]any)
	for _, k := range []string{"min", "max", "mean", "stddev", "p50", "p95", "p99", "p999"} {
		if _, ok := fb[k]; !ok {
			t.Errorf("first_byte lacks %q", k)
		}
	}
}
