package schedule

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"benchbed/plan/decode"
	"benchbed/plan/plantest"
	"benchbed/plan/render"
	"benchbed/templates/secrets"
)

// kinds lists a cell's steps as "kind:service|ring|workload".
func kinds(c CellPlan) []string {
	var out []string
	for _, s := range c.Steps {
		out = append(out, string(s.Kind)+":"+s.Service+s.Ring+s.Workload)
	}
	return out
}

// find returns c's first step of kind (a zero Step when it has none).
func find(c CellPlan, kind Kind) Step {
	for _, s := range c.Steps {
		if s.Kind == kind {
			return s
		}
	}
	return Step{}
}

// TestSeedPlanSteps: every cell names the sweep's steps in the sweep's
// order; the first pushes every conf and restarts every server, later ones
// only what changes; prefill runs once, before the cells.
func TestSeedPlanSteps(t *testing.T) {
	p := New(plantest.LoadSeed(t))
	if len(p.Cells) != 6 {
		t.Fatalf("%d cells, want 6", len(p.Cells))
	}
	wantBefore := []Kind{"preflight", "preconditions", "lock", "environment", "render", "backup", "prefill"}
	if diff := cmp.Diff(wantBefore, Kinds(p.Before)); diff != "" {
		t.Errorf("before (-want +got):\n%s", diff)
	}
	if pf := p.Before[len(p.Before)-1]; pf.Workload != "64K_get" || pf.Unchanged || pf.Agents != 8 {
		t.Errorf("prefill = %+v", pf)
	}
	cellKinds := []Kind{"record", "ring-ports", "push-conf", "restart", "health", "telemetry-start", "run", "telemetry"}
	for _, c := range p.Cells {
		if diff := cmp.Diff(cellKinds, Kinds(c.Steps)); diff != "" {
			t.Errorf("cell %s (-want +got):\n%s", c.Cell.ID, diff)
		}
	}
	if diff := cmp.Diff([]Kind{"undo-backup", "undo-lock"}, Kinds(p.Finally)); diff != "" {
		t.Errorf("finally (-want +got):\n%s", diff)
	}
	want := []string{"record:", "ring-ports:object", "push-conf:object-server", "restart:object-server",
		"restart:proxy-server", "restart:object-replication-server", "health:", "telemetry-start:", "run:64K_get", "telemetry:"}
	if diff := cmp.Diff(want, kinds(p.Cells[2])); diff != "" {
		t.Errorf("servers_per_port=1 steps (-want +got):\n%s", diff)
	}
	want = []string{"record:", "ring-ports:", "push-conf:object-server", "restart:object-server", "health:",
		"telemetry-start:", "run:64K_get", "telemetry:"}
	if diff := cmp.Diff(want, kinds(p.Cells[3])); diff != "" {
		t.Errorf("servers_per_port=2 steps (-want +got):\n%s", diff)
	}
	if !find(p.Cells[3], StepRingPorts).Unchanged || find(p.Cells[3], StepPushConf).Unchanged {
		t.Errorf("servers_per_port=2: ring-ports should be unchanged and push-conf not: %v", p.Cells[3].Steps)
	}
	ch := find(p.Cells[3], StepPushConf).Changes
	if diff := cmp.Diff([]Change{{Section: "DEFAULT", Key: "servers_per_port", Old: "1", New: "2"}}, ch); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	first := p.Cells[0]
	var restarted []string
	for _, s := range first.Steps {
		if s.Kind == StepRestart {
			restarted = append(restarted, s.Service)
		}
	}
	if len(restarted) != len(p.Testbed.Services) {
		t.Errorf("first cell restarts %v, want every service", restarted)
	}
	run := find(p.Cells[5], StepRun)
	if run.Users != 2048 || run.Duration != time.Hour || run.Agents != 8 {
		t.Errorf("run = %+v", run)
	}
	// Six one-hour runs at least, plus the prefill of 10M objects by 8 agents.
	if p.Estimate.Total < 6*time.Hour+p.Estimate.Prefill || p.Estimate.Prefill <= 0 {
		t.Errorf("estimate = %+v", p.Estimate)
	}
}

func TestPlanJSONShape(t *testing.T) {
	b, err := json.Marshal(New(plantest.LoadSeed(t)).JSON())
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
	text := plantest.Fixture(t, "minimal.hcl") + `
variable "pw" { sensitive = true }
service "object-server" {
  role     = "object"
  settings = { DEFAULT = { password = var.pw, workers = 1 } }
  unchecked = ["password"] # no option of the object server's: a secret by its key's name
}
variant "a" {}
variant "b" {
  set "object-server" { DEFAULT = { password = "${var.pw}2", workers = 2 } }
}
`
	tb := plantest.Load(t, text, decode.LoadOptions{Vars: map[string]string{"pw": "s3cr\"et"}}, nil)
	p := New(tb)
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
	text := plantest.Fixture(t, "minimal.hcl") + `
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
	p := New(plantest.Load(t, text, decode.LoadOptions{}, nil))
	got := [][]string{}
	for _, c := range p.Cells {
		got = append(got, kinds(c))
	}
	same := []string{"record:", "ring-ports:", "push-conf:", "restart:", "health:", "telemetry-start:", "warmup:w", "run:w", "telemetry:"}
	changed := []string{"record:", "ring-ports:object", "push-conf:object-server", "restart:object-server", "health:",
		"telemetry-start:", "warmup:w", "run:w", "telemetry:"}
	want := [][]string{
		changed,
		same,
		changed,
		same,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
	if find(p.Cells[2], StepRingPorts).PortPerDisk {
		t.Error("cell 3 should switch the object ring back to one port per host")
	}
	wantPorts := []render.PortChange{{Ring: "object", Host: "h1", Devices: []string{"d1", "d2"}, Old: []int{6201, 6202}, New: []int{6200, 6200}}}
	if diff := cmp.Diff(wantPorts, find(p.Cells[2], StepRingPorts).Ports); diff != "" {
		t.Errorf("port changes back (-want +got):\n%s", diff)
	}
	if d := find(p.Cells[1], StepRun).Duration; d != time.Second {
		t.Errorf("run duration = %v, want the scenario's run_seconds 1s", d)
	}
	p.Reestimate(&Costs{Source: "none"}) // steps cost nothing: a cell is its warm-up and run
	if p.Estimate.Unbounded != 0 || p.Estimate.PerCell[1] != 31*time.Second {
		t.Errorf("estimate = %+v", p.Estimate)
	}
}
