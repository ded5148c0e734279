package rings

import (
	"strconv"
	"strings"
	"testing"

	"benchbed/plan"
)

func testRing() *plan.Ring {
	return &plan.Ring{Name: "object", Role: "object", PartPower: 8, Replicas: 2, MinPartHours: 1, Disks: "object", Port: 6200, PortBase: 6210}
}

func dev(id, zone int, ip, name string, port int) ringDev {
	return ringDev{ID: id, Region: 1, Zone: zone, IP: ip, Port: port, Device: name, Weight: 100}
}

func wantDevs(n int) []ringDev {
	var out []ringDev
	for i := 0; i < n; i++ {
		d := dev(-1, 1, "198.18.0.21", "d"+strconv.Itoa(i), 6200)
		d.Host = "stor1"
		out = append(out, d)
	}
	return out
}

func haveState(n int) *BuilderState {
	s := &BuilderState{PartPower: 8, Replicas: 2, MinPartHours: 1, RingFile: true, RingCurrent: true}
	for i := 0; i < n; i++ {
		s.Devs = append(s.Devs, dev(i, 1, "198.18.0.21", "d"+strconv.Itoa(i), 6200))
	}
	return s
}

func TestPlanRingCreatesAddsRebalancesWrites(t *testing.T) {
	c, err := planRing("/etc/swift", testRing(), nil, wantDevs(2))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"swift-ring-builder /etc/swift/object.builder create 8 2 1",
		"swift-ring-builder /etc/swift/object.builder add --region 1 --zone 1 --ip 198.18.0.21 --port 6200 --device d0 --weight 100",
		"swift-ring-builder /etc/swift/object.builder add --region 1 --zone 1 --ip 198.18.0.21 --port 6200 --device d1 --weight 100",
		"swift-ring-builder /etc/swift/object.builder rebalance",
		"swift-ring-builder /etc/swift/object.builder write_ring",
	}
	if strings.Join(c.Commands(), "\n") != strings.Join(want, "\n") {
		t.Errorf("commands:\n%s\nwant:\n%s", strings.Join(c.Commands(), "\n"), strings.Join(want, "\n"))
	}
}

func TestPlanRingUnchangedIsEmpty(t *testing.T) {
	c, err := planRing("/etc/swift", testRing(), haveState(4), wantDevs(4))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Commands()) != 0 || len(c.Changes) != 0 {
		t.Errorf("an up-to-date ring gives commands %q changes %q", c.Commands(), c.Changes)
	}
}

func TestPlanRingOneMoreDiskIsAChangeNotARebuild(t *testing.T) {
	c, err := planRing("/etc/swift", testRing(), haveState(4), wantDevs(5))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(c.Commands(), "\n")
	if strings.Contains(got, " create ") || strings.Contains(got, " remove ") {
		t.Errorf("one more disk rebuilds or removes:\n%s", got)
	}
	for _, w := range []string{"add --region 1 --zone 1 --ip 198.18.0.21 --port 6200 --device d4", " rebalance", " write_ring"} {
		if !strings.Contains(got, w) {
			t.Errorf("commands lack %q:\n%s", w, got)
		}
	}
}

func TestPlanRingPortSwitchNeedsNoRebalance(t *testing.T) {
	want := wantDevs(2)
	want[1].Port = 6211
	c, err := planRing("/etc/swift", testRing(), haveState(2), want)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(c.Commands(), "\n")
	if c.Rebalance || strings.Contains(got, "rebalance") {
		t.Errorf("a port switch rebalances:\n%s", got)
	}
	if !strings.Contains(got, "set_info --ip 198.18.0.21 --port 6200 --device d1 --change-port 6211 --change-replication-port 6211 --yes") {
		t.Errorf("no set_info for the new port:\n%s", got)
	}
}

func TestPlanRingRemovesAndReweights(t *testing.T) {
	want := wantDevs(1)
	want[0].Weight = 50
	c, err := planRing("/etc/swift", testRing(), haveState(2), want)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(c.Commands(), "\n")
	for _, w := range []string{"set_weight d0 50 --yes", "remove d1 --yes", "rebalance"} {
		if !strings.Contains(got, w) {
			t.Errorf("commands lack %q:\n%s", w, got)
		}
	}
}

func TestPlanRingStaleRingFileIsRewritten(t *testing.T) {
	have := haveState(2)
	have.RingCurrent = false
	c, err := planRing("/etc/swift", testRing(), have, wantDevs(2))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Commands()) != 1 || !strings.HasSuffix(c.Commands()[0], " write_ring") {
		t.Errorf("stale ring file: commands %q, want only write_ring", c.Commands())
	}
}

func TestPlanRingRefusesAnotherPartPower(t *testing.T) {
	have := haveState(2)
	have.PartPower = 10
	_, err := planRing("/etc/swift", testRing(), have, wantDevs(2))
	if err == nil || !strings.Contains(err.Error(), "part power 10") {
		t.Errorf("part power change: err %v, want a refusal naming it", err)
	}
}

func TestParseDump(t *testing.T) {
	s, err := parseDump("null\n")
	if err != nil || s != nil {
		t.Errorf("null dump: %v %v", s, err)
	}
	s, err = parseDump(`{"part_power": 8, "replicas": 2.0, "min_part_hours": 1, "devs": [{"id": 3, "region": 1, "zone": 2, "ip": "198.18.0.22", "port": 6200, "device": "d0", "weight": 100.0}], "ring_file": true, "ring_current": true, "devs_changed": false}`)
	if err != nil || s.PartPower != 8 || len(s.Devs) != 1 || s.Devs[0].ID != 3 || s.Devs[0].Key() != "198.18.0.22/d0" {
		t.Errorf("dump parsed as %+v, %v", s, err)
	}
	if _, err := parseDump("Traceback (most recent call last):"); err == nil {
		t.Error("garbage dump parsed")
	}
}
