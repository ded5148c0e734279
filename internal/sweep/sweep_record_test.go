package sweep

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"benchbed/internal/labtest"
	"benchbed/plan/render"
	"benchbed/results/rundir"
)

// TestRingLayoutDataMatchesItsText records every variant's ring layout of
// the lab as the sweep does and reads it back both ways: the data
// (ring-layout.json) and, as for a run older than it, the text
// (ring-ports.txt) give the same layout.
func TestRingLayoutDataMatchesItsText(t *testing.T) {
	tb := labtest.LabTestbed(t)
	run, err := rundir.NewRun(t.TempDir(), tb.Name, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range tb.Variants {
		r := labtest.RenderVariant(t, tb, v.Name)
		data := ringLayoutData(r.Layout)
		if err := run.WriteRingLayout(v.Name, data); err != nil {
			t.Fatal(err)
		}
		dir, _ := run.CellDir(v.Name)
		got, err := rundir.ReadRingLayout(dir)
		if err != nil || !reflect.DeepEqual(got, data) {
			t.Fatalf("%s: read back %+v, %v; want %+v", v.Name, got, err, data)
		}
		old := filepath.Join(t.TempDir(), "old")
		if err := os.MkdirAll(old, 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(old, rundir.RingPortsFile), []byte(render.LayoutText(r.Layout)), 0o640); err != nil {
			t.Fatal(err)
		}
		fromText, err := rundir.ReadRingLayout(old)
		fromText.Variant = data.Variant // the text names it in a comment only
		if err != nil || !reflect.DeepEqual(fromText, data) {
			t.Fatalf("%s: from the text %+v, %v; want %+v", v.Name, fromText, err, data)
		}
	}
}
