package compare

import (
	"bytes"
	"strings"
	"testing"

	"benchbed/results/rundir/rundirtest"
)

func TestCompareFaultCellsSideBySide(t *testing.T) {
	dir := t.TempDir()
	if _, err := rundirtest.WriteFaultRun(dir, rundirtest.SeedFaultCells...); err != nil {
		t.Fatal(err)
	}
	a, err := OpenSide("", dir+":normal")
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenSide("", dir+":servers_per_port=4")
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := Compare(a, b, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := cmp.Pairs[0].Fault
	if f == nil || f.A == nil || f.B == nil {
		t.Fatalf("no fault comparison: %+v", cmp.Pairs[0])
	}
	if f.A.Recovery.AfterS != 3 || !f.B.Recovery.Recovered || f.B.Recovery.AfterS != 0 || f.A.Degradation.LastByteP99 <= f.B.Degradation.LastByteP99 {
		t.Errorf("sides: %+v %+v", f.A, f.B)
	}
	var out bytes.Buffer
	if err := WriteComparison(&out, cmp, "text"); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, w := range []string{"Under the fault", "last-byte p99 during / before", "x12.00", "x2.50", "3 s after the undo", "0 s after the undo"} {
		if !strings.Contains(text, w) {
			t.Errorf("comparison lacks %q:\n%s", w, text)
		}
	}
}
