package rundir_test

import (
	"testing"

	"benchbed/results"
	"benchbed/results/rundir"
	"benchbed/results/rundir/rundirtest"
)

func TestCellPhasesFromTheAgentsStreams(t *testing.T) {
	rr, err := rundirtest.WriteFaultRun(t.TempDir(), rundirtest.SeedFaultCells...)
	if err != nil {
		t.Fatal(err)
	}
	normal, spp := rr.Summary.Cells[0].Fault, rr.Summary.Cells[1].Fault
	if normal == nil || spp == nil {
		t.Fatal("no phases in the summary")
	}
	if normal.StartS != 10 || normal.EndS != 20 || len(normal.Seconds) != rundirtest.FaultRunSeconds {
		t.Errorf("window %g..%g, %d seconds", normal.StartS, normal.EndS, len(normal.Seconds))
	}
	b, d := normal.Phase(results.PhaseBefore), normal.Phase(results.PhaseDuring)
	// Two agents of 100 GETs a second each before, 20 during.
	if b.Total.Count != 2000 || d.Total.Count != 400 || d.Total.ErrorsBy["http_503"] != 40 {
		t.Errorf("before %d, during %d ops, %v", b.Total.Count, d.Total.Count, d.Total.ErrorsBy)
	}
	if !normal.Recovery.Recovered || normal.Recovery.AfterS != 3 {
		t.Errorf("normal's recovery: %+v", normal.Recovery)
	}
	if !spp.Recovery.Recovered || spp.Recovery.AfterS != 0 {
		t.Errorf("servers_per_port=4's recovery: %+v", spp.Recovery)
	}
	if normal.Degradation.LastByteP99 < 10 || spp.Degradation.LastByteP99 > 3 {
		t.Errorf("p99 degradation normal %.2f, servers_per_port %.2f", normal.Degradation.LastByteP99, spp.Degradation.LastByteP99)
	}
	// A cell without faults.json has no phases.
	c := rr.Summary.Cells[0]
	c.ID = "missing"
	if fp, err := rr.CellPhases(&c, results.RecoveryOptions{}); fp != nil || err != nil {
		t.Errorf("a cell without faults: %v %v", fp, err)
	}
	if fs, err := rundir.ReadFaults(rr.CellDir(&rr.Summary.Cells[0])); err != nil || len(fs) != 1 || fs[0].Kind != "slow_disk" {
		t.Errorf("faults.json: %+v %v", fs, err)
	}
}
