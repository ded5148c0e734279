package decode

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"benchbed/plan"
	"benchbed/plan/scenario"
)

func loadSeed(t *testing.T) *plan.Testbed {
	t.Helper()
	tb, diags := Load("../../testbeds/swiftstack-2015.hcl", LoadOptions{})
	if diags.HasErrors() {
		t.Fatalf("seed testbed: %s", diags.Error())
	}
	return tb
}

// TestSeedLab checks the seed's lab against seed 000's text.
func TestSeedLab(t *testing.T) {
	tb := loadSeed(t)
	var names []string
	for _, v := range tb.Variants {
		names = append(names, v.Name)
	}
	want := []string{"normal", "threads_per_disk=1", "servers_per_port=1", "servers_per_port=2",
		"servers_per_port=3", "servers_per_port=4"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("variants (-want +got):\n%s", diff)
	}
	disks := map[string]int{}
	for _, h := range tb.Hosts {
		if g := h.DiskGroup("object"); g != nil {
			disks[h.Name] = len(g.Disks)
		}
	}
	if diff := cmp.Diff(map[string]int{"stor1": 32, "stor2": 29}, disks); diff != "" {
		t.Errorf("object disks (-want +got):\n%s", diff)
	}
	w := tb.Workloads[0]
	if w.Users != 2048 || w.Duration != time.Hour || w.AgentsPerClient != 4 || len(w.Clients) != 2 {
		t.Errorf("workload = %d users, %v, %d agents on %v", w.Users, w.Duration, w.AgentsPerClient, w.Clients)
	}
	sc, err := scenario.Parse(w.ScenarioJSON)
	if err != nil {
		t.Fatal(err)
	}
	if sc.InitialFiles["64KiB"] != 10000000 || sc.ContainerCount != 200 || sc.Sizes[0].SizeMin != 65536 {
		t.Errorf("scenario = %+v", sc)
	}
	obj := tb.Service("object-server")
	spp := tb.Effective(obj, tb.Variant("servers_per_port=3"))
	if spp["DEFAULT"]["servers_per_port"].Value != "3" || spp["DEFAULT"]["workers"].Value != "6" {
		t.Errorf("servers_per_port=3 DEFAULT = %+v", spp["DEFAULT"])
	}
	tpd := tb.Effective(obj, tb.Variant("threads_per_disk=1"))
	if tpd["app:object-server"]["threads_per_disk"].Value != "1" || tpd["DEFAULT"]["workers"].Value != "6" {
		t.Errorf("threads_per_disk=1 = %+v", tpd)
	}
	if got := tb.Variant("normal").Description; got != "normal; 29 workers" {
		t.Errorf("normal's description = %q", got)
	}
	if got := tb.Effective(obj, tb.Variant("normal"))["DEFAULT"]["workers"].Value; got != "29" {
		t.Errorf("normal workers = %q, want 29", got)
	}
	if !tb.Variant("servers_per_port=1").PortPerDisk("object") || tb.Variant("normal").PortPerDisk("object") {
		t.Error("port_per_disk: want true for servers_per_port variants only")
	}
}
