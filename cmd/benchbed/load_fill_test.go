package main

import (
	"encoding/json"
	"strings"
	"testing"

	"benchbed/results"
)

// TestLoadFillRun: --fill-objects makes a create-only scenario a fill run
// of that many objects a container, its cell and table by fill bucket;
// another scenario is refused.
func TestLoadFillRun(t *testing.T) {
	srv := nullSwift(t)
	args := []string{"load", "--scenario", "../../testbeds/scenarios/1B_put.scenario", "--storage-url", srv.URL + "/v1/AUTH_t",
		"--token", "tok-secret", "--users", "2", "--initial", "skip", "--fill-objects", "100", "--fill-buckets", "5"}
	out, _, err := runCmd(t, "", append(args, "--json")...)
	var c results.Cell
	if err != nil || json.Unmarshal([]byte(out), &c) != nil {
		t.Fatalf("err %v, json:\n%s", err, out)
	}
	var sum int64
	for i, b := range c.Fill {
		if b.Count == 0 || b.From != int64(20*i) || b.To != int64(20*i+20) {
			t.Errorf("bucket %d: %+v", i, b)
		}
		sum += b.Count
	}
	if len(c.Fill) != 5 || sum != 100 || c.Ops["PUT"].Count != 100 {
		t.Errorf("%d buckets with %d PUTs, %d PUTs in all", len(c.Fill), sum, c.Ops["PUT"].Count)
	}
	out, _, err = runCmd(t, "", args...)
	if err != nil || !strings.Contains(out, "PUT latency by the containers' fill (target 100 objects a container)") ||
		!strings.Contains(out, " 80..100 |") {
		t.Errorf("err %v, table:\n%s", err, out)
	}
	_, _, err = runCmd(t, "", "load", "--scenario", seedScenario, "--storage-url", srv.URL+"/v1/AUTH_t",
		"--token", "tok-secret", "--initial", "skip", "--fill-objects", "100")
	if err == nil || !strings.Contains(err.Error(), "create-only") {
		t.Errorf("a GET scenario's fill run: %v", err)
	}
}
