package plan

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"benchbed/secrets"

	"github.com/google/go-cmp/cmp"
)

// kinds lists a cell's steps as "kind:service|ring|workload".
func kinds(c CellPlan) []string {
	var out []string
	for _, s := range c.Steps {
		out = append(out, s.Kind+":"+s.Service+s.Ring+s.Workload)
	}
	return out
}

func TestSeedPlanSteps(t *testing.T) {
	p := NewPlan(loadSeed(t))
	if len(p.Cells) != 6 {
		t.Fatalf("%d cells, want 6", len(p.Cells))
	}
	first := kinds(p.Cells[0])
	if first[len(first)-2] != "prefill:64K_get" || first[len(first)-1] != "run:64K_get" {
		t.Errorf("first cell ends with %v, want prefill then run", first[len(first)-2:])
	}
	for _, c := range p.Cells[1:] {
		for _, s := range c.Steps {
			if s.Kind == StepPrefill {
				t.Errorf("cell %s prefills again", c.Cell.ID)
			}
		}
	}
	want := []string{"render:object-server", "ring-ports:object", "restart:object-server",
		"restart:object-replication-server", "run:64K_get"}
	if diff := cmp.Diff(want, kinds(p.Cells[2])); diff != "" {
		t.Errorf("servers_per_port=1 steps (-want +got):\n%s", diff)
	}
	want = []string{"render:object-server", "restart:object-server", "run:64K_get"}
	if diff := cmp.Diff(want, kinds(p.Cells[3])); diff != "" {
		t.Errorf("servers_per_port=2 steps (-want +got):\n%s", diff)
	}
	ch := p.Cells[3].Steps[0].Changes
	if diff := cmp.Diff([]Change{{Section: "DEFAULT", Key: "servers_per_port", Old: "1", New: "2"}}, ch); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	run := p.Cells[5].Steps[2]
	if run.Users != 2048 || run.Duration != time.Hour || run.Agents != 8 {
		t.Errorf("run = %+v", run)
	}
	// Six one-hour runs at least, plus the prefill of 10M objects by 8 agents.
	if p.Estimate.Total < 6*time.Hour+p.Estimate.Prefill || p.Estimate.Prefill <= 0 {
		t.Errorf("estimate = %+v", p.Estimate)
	}
}

func TestPlanJSONShape(t *testing.T) {
	b, err := json.Marshal(NewPlan(loadSeed(t)).JSON())
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Testbed string
		Hosts   []struct {
			Name, Address string
			Roles         []string
		}
		Cells []struct {
			ID, Variant, Workload string
			Repeat                int
		}
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Testbed != "swiftstack-2015" || len(got.Hosts) != 4 || got.Hosts[0].Address != "192.168.201.51" ||
		len(got.Hosts[2].Roles) != 3 {
		t.Errorf("hosts = %+v", got.Hosts)
	}
	if len(got.Cells) != 6 || got.Cells[1].Variant != "threads_per_disk=1" || got.Cells[1].ID != "002-threads_per_disk_1-64K_get-r1" ||
		got.Cells[5].Repeat != 1 || got.Cells[5].Workload != "64K_get" {
		t.Errorf("cells = %+v", got.Cells)
	}
}

func TestPlanMasksSecrets(t *testing.T) {
	text := minimal + `
variable "pw" { sensitive = true }
service "object-server" {
  role     = "object"
  settings = { DEFAULT = { password = var.pw, workers = 1 } }
}
variant "a" {}
variant "b" {
  set "object-server" { DEFAULT = { password = "${var.pw}2", workers = 2 } }
}
`
	tb := mustLoad(t, text, LoadOptions{Vars: map[string]string{"pw": "s3cr\"et"}}, nil)
	p := NewPlan(tb)
	var out strings.Builder
	if err := p.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(p.JSON())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{out.String(), tb.Mask(string(b))} {
		if strings.Contains(s, "s3cr") {
			t.Errorf("secret in output:\n%s", s)
		}
	}
	if !strings.Contains(out.String(), "password: "+secrets.Masked+" -> "+secrets.Masked) {
		t.Errorf("masked change not shown:\n%s", out.String())
	}
}

func TestPlanRingSwitchBackAndRepeats(t *testing.T) {
	text := minimal + `
service "object-server" {
  role     = "object"
  settings = { DEFAULT = { workers = 2 } }
}
variant "spp" {
  set "object-server" { DEFAULT = { servers_per_port = 1 } }
  ring "object" { port_per_disk = true }
}
variant "normal" {}
sweep {
  repeat = 2
  warmup = 30
}
`
	p := NewPlan(mustLoad(t, text, LoadOptions{}, nil))
	got := [][]string{}
	for _, c := range p.Cells {
		got = append(got, kinds(c))
	}
	want := [][]string{
		{"render:object-server", "ring-ports:object", "restart:object-server", "warmup:w", "run:w"},
		{"warmup:w", "run:w"},
		{"render:object-server", "ring-ports:object", "restart:object-server", "warmup:w", "run:w"},
		{"warmup:w", "run:w"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
	if p.Cells[2].Steps[1].PortPerDisk {
		t.Error("cell 3 should switch the object ring back to one port per host")
	}
	wantPorts := []PortChange{{Ring: "object", Host: "h1", Devices: []string{"d1", "d2"}, Old: []int{6201, 6202}, New: []int{6200, 6200}}}
	if diff := cmp.Diff(wantPorts, p.Cells[2].Steps[1].Ports); diff != "" {
		t.Errorf("port changes back (-want +got):\n%s", diff)
	}
	if p.Cells[1].Steps[1].Duration != time.Second {
		t.Errorf("run duration = %v, want the scenario's run_seconds 1s", p.Cells[1].Steps[1].Duration)
	}
	if p.Estimate.Unbounded != 0 || p.Estimate.PerCell[1] != 31*time.Second {
		t.Errorf("estimate = %+v", p.Estimate)
	}
}
