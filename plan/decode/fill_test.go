package decode

import (
	"path/filepath"
	"testing"
)

// TestSeed003FillLabTestbed: the lab's fill experiment fills one container
// with 1-byte PUTs to var.fill_objects in 10 buckets, in two variants; the
// variable makes a short run.
func TestSeed003FillLabTestbed(t *testing.T) {
	path := filepath.Join("..", "..", "testbeds", "lab", "seed003-fill-lab.hcl")
	for _, c := range []struct {
		vars    map[string]string
		objects int64
	}{{nil, 20000}, {map[string]string{"fill_objects": "2000"}, 2000}} {
		tb, diags := Load(path, LoadOptions{Vars: c.vars})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		if len(tb.Workloads) != 1 || len(tb.Variants) != 2 {
			t.Fatalf("%d workloads, %d variants", len(tb.Workloads), len(tb.Variants))
		}
		w := tb.Workloads[0]
		sc := scenarioOfT(t, w)
		if w.Fill == nil || w.Fill.ContainerObjects != c.objects || w.Fill.Buckets != 10 || sc.ContainerCount != 1 {
			t.Errorf("vars %v: fill %+v into %d containers", c.vars, w.Fill, sc.ContainerCount)
		}
	}
}
