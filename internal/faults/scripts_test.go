package faults

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan"
	"benchbed/plan/decode"
)

// syntaxOK fails t unless every script of s parses with sh -n.
func syntaxOK(t *testing.T, s Scripts) {
	t.Helper()
	for name, sc := range map[string]string{"probe": s.Probe, "apply": s.Apply, "undo": s.Undo, "check": s.Check} {
		if out, err := exec.Command("sh", "-n", "-c", sc).CombinedOutput(); err != nil {
			t.Errorf("%s does not parse: %v %s\n%s", name, err, out, sc)
		}
	}
}

func TestEveryKindBuildsScriptsThatParse(t *testing.T) {
	disks := []Disk{{Name: "d1", Device: "/dev/vd b'1", Mount: "/srv/node/d1"}}
	direct := Service{Name: "object-server", Manager: plan.ManagerDirect, PidFile: "/var/run/swift/object-server.pid", Start: "true"}
	systemd := Service{Name: "object-server", Manager: plan.ManagerSystemd, Unit: "swift-object", Conf: "/etc/swift/object-server.conf"}
	swiftInit := Service{Name: "object-server", Manager: plan.ManagerSwiftInit, Unit: "object-server", Conf: "/etc/swift/object-server.conf"}
	cases := []Target{
		{Fault: &plan.Fault{Kind: plan.FaultSlowDisk, ReadBytesPerS: 1 << 20, WriteIOPS: 10}, Service: direct, Disks: disks},
		{Fault: &plan.Fault{Kind: plan.FaultSlowDisk, ReadBytesPerS: 1 << 20}, Service: systemd, Disks: disks},
		{Fault: &plan.Fault{Kind: plan.FaultFailDisk}, Disks: disks},
		{Fault: &plan.Fault{Kind: plan.FaultStop, How: plan.HowManager}, Service: systemd},
		{Fault: &plan.Fault{Kind: plan.FaultStop, How: plan.HowKill}, Service: swiftInit},
		{Fault: &plan.Fault{Kind: plan.FaultStop, How: plan.HowKill}, Service: direct},
		{Fault: &plan.Fault{Kind: plan.FaultPause, How: plan.HowSignal}, Service: systemd},
		{Fault: &plan.Fault{Kind: plan.FaultPause, How: plan.HowFreezer}, Service: direct},
		{Fault: &plan.Fault{Kind: plan.FaultPause, How: plan.HowFreezer}, Service: systemd},
		{Fault: &plan.Fault{Kind: plan.FaultPartition}, Ports: []int{6200, 6201, 8080}},
		{Fault: &plan.Fault{Kind: plan.FaultSlowLink, Rate: "10mbit"}, Address: "10.0.0.2"},
		{Fault: &plan.Fault{Kind: plan.FaultRebalance}, Ring: Ring{Name: "object", Device: "10.0.0.2/d1", Weight: 0}},
	}
	for _, c := range cases {
		c.ID, c.Host = "f0-stor1", "stor1"
		s, err := Build(c)
		if err != nil {
			t.Errorf("%s: %v", c.Fault.Kind, err)
			continue
		}
		syntaxOK(t, s)
		if !strings.Contains(s.Apply, "host=stor1\n") {
			t.Errorf("%s: no prologue in\n%s", c.Fault.Kind, s.Apply)
		}
	}
}

func TestBuildRefusesWhatItCannotDo(t *testing.T) {
	cases := []struct {
		t    Target
		want string
	}{
		{Target{ID: "f0", Host: "h", Fault: &plan.Fault{Kind: plan.FaultSlowDisk, ReadIOPS: 1}}, "no disk"},
		{Target{ID: "f0", Host: "h", Fault: &plan.Fault{Kind: plan.FaultSlowDisk, ReadIOPS: 1}, Disks: []Disk{{Name: "d1"}}}, "no block device"},
		{Target{ID: "f0", Host: "h", Fault: &plan.Fault{Kind: plan.FaultStop, How: plan.HowKill},
			Service: Service{Name: "o", Manager: plan.ManagerDirect, PidFile: "/p"}}, "no start script"},
		{Target{ID: "f0", Host: "h", Fault: &plan.Fault{Kind: plan.FaultPause}, Service: Service{Name: "o", Manager: plan.ManagerDirect}}, "neither a pid file nor a conf"},
		{Target{ID: "f0", Host: "h", Fault: &plan.Fault{Kind: plan.FaultPartition}}, "no port"},
		{Target{ID: "f0; rm", Host: "h", Fault: &plan.Fault{Kind: plan.FaultPartition}, Ports: []int{1}}, "fault id"},
	}
	for _, c := range cases {
		_, err := Build(c.t)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "h: ") {
			t.Errorf("want an error naming the host with %q, got %v", c.want, err)
		}
	}
}

func TestBracketFirstMatchesLiterallyButNotItself(t *testing.T) {
	re := bracketFirst("/etc/swift/object-server.conf")
	if re != `[/]etc/swift/object-server\.conf` {
		t.Errorf("pattern %q", re)
	}
}

func TestResolveFromTheTestbed(t *testing.T) {
	tb, diags := decode.Load("testdata/faults.hcl", decode.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	v := tb.Variant("faults")
	ts, err := Resolve(tb, v, 0)
	if err != nil || len(ts) != 1 {
		t.Fatalf("slow_disk: %v %v", ts, err)
	}
	sd := ts[0]
	if sd.ID != "f0-stor1" || sd.Service.Unit != "swift-object" || sd.Disks[0].Device != "/dev/vdb" || sd.Disks[0].Mount != "/srv/node/d1" {
		t.Errorf("slow_disk target: %+v", sd)
	}
	ts, _ = Resolve(tb, v, 1)
	if got := ts[0].Ports; len(got) != 2 || got[0] != 6201 || got[1] != 6202 {
		t.Errorf("partition ports of stor1 with one port per disk: %v", got)
	}
	ts, _ = Resolve(tb, v, 2)
	if r := ts[0].Ring; ts[0].Host != "proxy1" || r.Device != "10.0.0.2/d2" || r.Name != "object" {
		t.Errorf("rebalance runs on the builder: %+v", ts[0])
	}
	for i := range v.Faults {
		ts, _ := Resolve(tb, v, i)
		for _, x := range ts {
			if _, err := Build(x); err != nil {
				t.Errorf("fault %d: %v", i, err)
			}
		}
	}
}

func TestProbesNameHostAndMechanism(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		t    Target
		want string
	}{
		{Target{Fault: &plan.Fault{Kind: plan.FaultFailDisk}, Disks: []Disk{{Name: "d1", Device: "/dev/x", Mount: dir}}}, "stor1: fail_disk: " + dir + " (disk d1) is not mounted"},
		{Target{Fault: &plan.Fault{Kind: plan.FaultPause, How: plan.HowSignal},
			Service: Service{Name: "object-server", Manager: plan.ManagerDirect, PidFile: filepath.Join(dir, "none.pid")}}, "stor1: pause: no running process of service object-server"},
		{Target{Fault: &plan.Fault{Kind: plan.FaultSlowDisk, ReadIOPS: 5},
			Service: Service{Name: "o", Manager: plan.ManagerSwiftInit, Conf: "/etc/swift/none.conf"}, Disks: []Disk{{Name: "d1", Device: dir}}}, "stor1: slow_disk: "},
	}
	for _, c := range cases {
		c.t.ID, c.t.Host = "f9-stor1", "stor1"
		s, err := Build(c.t)
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("sh", "-c", s.Probe).CombinedOutput()
		if err == nil || !strings.Contains(string(out), c.want) {
			t.Errorf("%s probe: want failure with %q, got %v %s", c.t.Fault.Kind, c.want, err, out)
		}
	}
}
