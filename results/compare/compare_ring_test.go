package compare

import (
	"slices"
	"testing"
	"time"

	"benchbed/results/rundir"
)

// TestRingDiffFromData diffs two cells' ring-layout.json: the mode that
// changed, the ports per host as spans, and any other device change.
func TestRingDiffFromData(t *testing.T) {
	dev := func(host, d string, port int, w float64) rundir.RingDevice {
		return rundir.RingDevice{Host: host, IP: "10.0.0." + host[len(host)-1:], Device: d, Port: port, Weight: w}
	}
	a := &rundir.RingLayout{Variant: "normal", Rings: []rundir.Ring{{Name: "object", PartPower: 8, Replicas: 2,
		Mode:    "one port per host (6200)",
		Devices: []rundir.RingDevice{dev("stor1", "d0", 6200, 100), dev("stor1", "d1", 6200, 100), dev("stor2", "d0", 6200, 100)}}}}
	b := &rundir.RingLayout{Variant: "spp", Rings: []rundir.Ring{{Name: "object", PartPower: 8, Replicas: 2,
		Mode:    "one port per disk from 6210",
		Devices: []rundir.RingDevice{dev("stor1", "d0", 6210, 100), dev("stor1", "d1", 6211, 100), dev("stor2", "d0", 6200, 50)}},
		{Name: "account", Mode: "one port per host (6202)"}}}
	run, err := rundir.NewRun(t.TempDir(), "lab", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for id, l := range map[string]*rundir.RingLayout{"1": a, "2": b} {
		if err := run.WriteRingLayout(id, l); err != nil {
			t.Fatal(err)
		}
	}
	da, _ := run.CellDir("1")
	db, _ := run.CellDir("2")
	d := DiffCellConfs(da, db)
	want := []string{
		"ring object: one port per host (6200) -> one port per disk from 6210",
		"ring object ports: stor1: d0,d1 6200 -> 6210..6211",
		"ring object: stor2 10.0.0.2:6200/d0 100 -> 10.0.0.2:6200/d0 50",
		"ring account: only in B",
	}
	for _, w := range want {
		if !slices.Contains(d.Rings, w) {
			t.Errorf("ring diff lacks %q: %q", w, d.Rings)
		}
	}
	if len(d.Rings) != len(want) {
		t.Errorf("ring diff %q, want %d lines", d.Rings, len(want))
	}
}
