package results

import (
	"encoding/json"
	"testing"

	"benchbed/internal/golden"
)

func TestCellJSONGolden(t *testing.T) {
	c := Cell{Variant: "servers_per_port=2", Workload: "64K_get", Repeat: 1, Status: "ok",
		DurationS: 300, Ops: map[string]OpSummary{"GET": {ReqPerS: 2523.94, Errors: 12,
			FirstByte: Stats{Min: 0.0071, Max: 3.1404, Mean: 0.23749, StdDev: 0.158, P95: 0.549}}}}
	c.Total = c.Ops["GET"]
	got, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "cell.json", append(got, '\n'))
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
