package decode

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
)

// minimalWorkload is the workload (and client host) every testbed needs.
var minimalWorkload = fixture("minimal-workload.hcl")

// loadTextDiags loads a testbed written to a temporary file, with the
// minimal workload appended, and returns its diagnostics.
func loadTextDiags(t *testing.T, name, text string) (*plan.Testbed, hcl.Diagnostics) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text+minimalWorkload), 0o644); err != nil {
		t.Fatal(err)
	}
	return Load(path, LoadOptions{})
}

func TestLayoutPortsPerHostAndPerDisk(t *testing.T) {
	tb := loadSeed(t)
	normal, err := tb.Layout(tb.Variant("normal"))
	if err != nil {
		t.Fatal(err)
	}
	spp, err := tb.Layout(tb.Variant("servers_per_port=2"))
	if err != nil {
		t.Fatal(err)
	}
	obj := normal.Ring("object")
	if len(obj.Devices) != 61 || obj.PortPerDisk || !slices.Equal(obj.Ports("stor1"), []int{6200}) {
		t.Fatalf("normal object ring: %d devices, per disk %v, stor1 ports %v", len(obj.Devices), obj.PortPerDisk, obj.Ports("stor1"))
	}
	o2 := spp.Ring("object")
	if p := o2.Ports("stor2"); len(p) != 29 || p[0] != 6210 || p[28] != 6238 {
		t.Fatalf("servers_per_port=2 stor2 ports %v", p)
	}
	if d := o2.Devices[5]; d.Host != "stor1" || d.Name != "d5" || d.Port != 6215 || d.IP != "192.168.201.61" || d.String() != "192.168.201.61:6215/d5" {
		t.Fatalf("device 5: %+v", d)
	}
	if c := spp.Ring("container"); c.PortPerDisk || !slices.Equal(c.Ports("stor1"), []int{6201}) {
		t.Fatalf("the variant leaves the container ring alone: %+v", c)
	}
}

func TestLayoutRefusesSharedPorts(t *testing.T) {
	tb, diags := loadTextDiags(t, "clash.hcl", fixture("port-clash.hcl"))
	if !strings.Contains(diags.Error(), "port 6201") {
		t.Errorf("Load should refuse the testbed too: %s", diags.Error())
	}
	if _, err := tb.Layout(tb.Variant("perdisk")); err == nil || !strings.Contains(err.Error(), `host s1 port 6201 is used by ring "object" (object) and ring "container" (container)`) {
		t.Fatalf("Layout: %v", err)
	}
	if _, err := tb.Layout(nil); err != nil {
		t.Fatalf("one port per host is fine: %v", err)
	}
}
