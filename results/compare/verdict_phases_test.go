package compare

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"benchbed/plan/slo"
	"benchbed/results"
	"benchbed/results/rundir"
	"benchbed/results/rundir/rundirtest"
)

// repeatedFaultRun writes the seed's fault cells twice each (two repeats
// a variant; the second a little slower) and returns its directory.
func repeatedFaultRun(t *testing.T) string {
	t.Helper()
	var fcs []rundirtest.FaultCell
	for r, ids := range [][2]string{{"001-normal-get-r1", "002-servers_per_port=4-get-r1"}, {"003-normal-get-r2", "004-servers_per_port=4-get-r2"}} {
		n, s := rundirtest.SeedFaultCells[0], rundirtest.SeedFaultCells[1]
		n.ID, s.ID = ids[0], ids[1]
		n.Lat += time.Duration(r) * time.Millisecond
		s.Lat += time.Duration(r) * time.Millisecond
		fcs = append(fcs, n, s)
	}
	dir := t.TempDir()
	if _, err := rundirtest.WriteFaultRun(dir, fcs...); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestFaultVerdictPhaseByPhase decides fault cells in each phase, not over
// the whole run whose level changes at the fault: servers_per_port=4 keeps
// its rate during the fault (150 req/s against 40) and is back at once
// after it, and before the fault the two are the same.
func TestFaultVerdictPhaseByPhase(t *testing.T) {
	rr, err := rundir.ReadRun(repeatedFaultRun(t))
	if err != nil {
		t.Fatal(err)
	}
	v, err := VerdictOfRun(rr, "", CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Blocks) != 1 {
		t.Fatalf("blocks: %+v", v.Blocks)
	}
	b := v.Blocks[0]
	want := map[string]map[string]string{ // phase -> metric -> word
		results.PhaseDuring: {MetricReqPerS: results.WordBetter, results.MetricLastP99: results.WordBetter},
		results.PhaseBefore: {MetricReqPerS: results.WordNoDifference},
		results.PhaseAfter:  {MetricReqPerS: results.WordBetter, results.MetricLastP99: results.WordBetter},
	}
	got := map[string]map[string]string{}
	for _, c := range append(b.Changes, b.Other...) {
		if c.Evidence != results.EvidenceRepeats {
			t.Errorf("%s %s: evidence %q, want repeats (%s)", c.Phase, c.Metric, c.Evidence, c.Why)
		}
		if got[c.Phase] == nil {
			got[c.Phase] = map[string]string{}
		}
		got[c.Phase][c.Metric] = c.Word
	}
	for ph, ms := range want {
		for m, w := range ms {
			if got[ph][m] != w {
				t.Errorf("%s %s: %q, want %q (all: %v)", ph, m, got[ph][m], w, got)
			}
		}
	}
	if len(b.Changes) == 0 || b.Changes[0].Phase != results.PhaseDuring {
		t.Errorf("the block's first changes are not during the fault: %+v", b.Changes)
	}
	var out bytes.Buffer
	if err := v.Write(&out, 0); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"phase by phase of its fault", "during req/s", "before req/s", "after  last-byte p99"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("verdict text lacks %q:\n%s", w, out.String())
		}
	}
}

// TestFaultGateFailsOnAnyPhase gates a fault pair on each phase: normal
// against servers_per_port=4 is 4.8 times slower at p99 during the fault,
// though the same before it.
func TestFaultGateFailsOnAnyPhase(t *testing.T) {
	dir := repeatedFaultRun(t)
	a, err := OpenSide("", dir+":servers_per_port=4")
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenSide("", dir+":normal")
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := Compare(a, b, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	th, err := slo.ParseThreshold("last_byte_p99 > +10%")
	if err != nil {
		t.Fatal(err)
	}
	vs := Gate(cmp, All([]slo.Threshold{th}))
	if len(vs) != 1 || !vs[0].Failed || !strings.Contains(vs[0].Why, "during the fault") {
		t.Fatalf("gate on the fault pair: %+v", vs)
	}
	th, err = slo.ParseThreshold("req/s < -90%")
	if err != nil {
		t.Fatal(err)
	}
	if vs := Gate(cmp, All([]slo.Threshold{th})); len(vs) != 1 || vs[0].Failed {
		t.Errorf("a -73%% change failed a -90%% gate: %+v", vs)
	}
}

// TestFaultVerdictBatchesPerPhase decides one run a side from batch means
// of each phase's own seconds: during the fault servers_per_port=4 keeps
// 150 req/s against normal's 40.
func TestFaultVerdictBatchesPerPhase(t *testing.T) {
	fcs := append([]rundirtest.FaultCell(nil), rundirtest.SeedFaultCells...)
	for i := range fcs {
		fcs[i].Noise = 6
	}
	dir := t.TempDir()
	rr, err := rundirtest.WriteFaultRun(dir, fcs...)
	if err != nil {
		t.Fatal(err)
	}
	v, err := VerdictOfRun(rr, "", CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := v.Blocks[0].Changes[0]
	if c.Phase != results.PhaseDuring || c.Metric != MetricReqPerS || c.Evidence != results.EvidenceBatches ||
		c.Word != results.WordBetter || c.N1 < results.VerdictMinBatches {
		t.Errorf("during req/s: %+v", c)
	}
	if c.DeltaPct < 200 || c.DeltaPct > 300 {
		t.Errorf("during req/s change %+.1f%%, want about +275%% (150 against 40)", c.DeltaPct)
	}
}
