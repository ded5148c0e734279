package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPlanJSONSeed(t *testing.T) {
	code, out, errOut := captureRun(t, "plan", "--json", seedFile)
	if code != 0 || !onlyRetiredWarnings(errOut) {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	var p struct {
		Testbed string `json:"testbed"`
		Hosts   []struct {
			Name, Address string
			Roles         []string
		} `json:"hosts"`
		Cells []struct {
			ID, Variant, Workload string
			Repeat                int
		} `json:"cells"`
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var variants []string
	for _, c := range p.Cells {
		variants = append(variants, c.Variant)
	}
	want := "normal threads_per_disk=1 servers_per_port=1 servers_per_port=2 servers_per_port=3 servers_per_port=4"
	if got := strings.Join(variants, " "); got != want {
		t.Errorf("variants %q, want %q", got, want)
	}
	if p.Testbed != "swiftstack-2015" || len(p.Hosts) != 4 || p.Hosts[3].Name != "stor2" {
		t.Errorf("testbed %q hosts %+v", p.Testbed, p.Hosts)
	}
}

func TestPlanText(t *testing.T) {
	code, out, errOut := captureRun(t, "plan", seedFile)
	if code != 0 || !onlyRetiredWarnings(errOut) {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	for _, want := range []string{"hosts by role:", "one port per disk: stor1 6210-6241",
		"[DEFAULT] servers_per_port: 1 -> 2", "prefill         64K_get: 10000000 objects", "push-conf       /etc/swift/object-server.conf", "estimate:", "assumes:"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan lacks %q", want)
		}
	}
	if code, _, _ := captureRun(t, "plan"); code != 2 {
		t.Errorf("plan without FILE: exit %d, want 2", code)
	}
}
