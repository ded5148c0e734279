package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// minimalWorkload is the workload (and client host) every testbed needs.
const minimalWorkload = `
host "client" {
  address = "127.0.0.2"
  roles   = ["client"]
}
workload "w" {
  scenario = { sizes = [{ name = "s", size_min = 1, size_max = 1 }], initial_files = { s = 1 }, crud_profile = [0, 1, 0, 0], run_seconds = 1 }
  storage_url = "http://127.0.0.1:8080/v1/AUTH_a"
  token       = "t"
}
`

// loadText loads a testbed written to a temporary file, with a minimal
// workload appended.
func loadText(t *testing.T, name, text string) *Testbed {
	t.Helper()
	tb, diags := loadTextDiags(t, name, text)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", name, diags.Error())
	}
	return tb
}

// loadTextDiags is loadText that returns the diagnostics.
func loadTextDiags(t *testing.T, name, text string) (*Testbed, hcl.Diagnostics) {
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
	if len(obj.Devices) != 61 || obj.PortPerDisk || !sameInts(obj.Ports("stor1"), []int{6200}) {
		t.Fatalf("normal object ring: %d devices, per disk %v, stor1 ports %v", len(obj.Devices), obj.PortPerDisk, obj.Ports("stor1"))
	}
	o2 := spp.Ring("object")
	if p := o2.Ports("stor2"); len(p) != 29 || p[0] != 6210 || p[28] != 6238 {
		t.Fatalf("servers_per_port=2 stor2 ports %v", p)
	}
	if d := o2.Devices[5]; d.Host != "stor1" || d.Name != "d5" || d.Port != 6215 || d.IP != "192.168.201.61" || d.String() != "192.168.201.61:6215/d5" {
		t.Fatalf("device 5: %+v", d)
	}
	if c := spp.Ring("container"); c.PortPerDisk || !sameInts(c.Ports("stor1"), []int{6201}) {
		t.Fatalf("the variant leaves the container ring alone: %+v", c)
	}
	text := spp.Text()
	for _, want := range []string{"# ring object: part_power 18, replicas 3, one port per disk from 6210", "stor2 192.168.201.62:6238/d28 100", "# ring account: part_power 12, replicas 3, one port per host (6202)"} {
		if !strings.Contains(text, want) {
			t.Errorf("layout text lacks %q", want)
		}
	}
}

func TestLayoutRefusesSharedPorts(t *testing.T) {
	tb, diags := loadTextDiags(t, "clash.hcl", `
testbed "clash" {}
host "s1" {
  address = "10.0.0.1"
  roles   = ["object", "container"]
  disks "object" { names = ["d0", "d1"] }
  disks "meta" { names = ["m0"] }
}
ring "object" {
  part_power = 4
  disks      = "object"
  port       = 6200
}
ring "container" {
  part_power = 4
  disks      = "meta"
  port       = 6201
}
service "object-server" { role = "object" }
service "container-server" { role = "container" }
variant "perdisk" {
  ring "object" { port_per_disk = true }
}
`)
	if !strings.Contains(diags.Error(), "port 6201") {
		t.Errorf("Load should refuse the testbed too: %s", diags.Error())
	}
	if _, err := tb.Layout(tb.Variant("perdisk")); err == nil || !strings.Contains(err.Error(), `host s1 port 6201 is used by ring "object" (object) and ring "container" (container)`) {
		t.Fatalf("Layout: %v", err)
	}
	if _, err := tb.Render(tb.Variant("perdisk"), RenderOptions{}); err == nil {
		t.Fatal("Render must fail like Layout")
	}
	if _, err := tb.Layout(nil); err != nil {
		t.Fatalf("one port per host is fine: %v", err)
	}
}

func TestDiffLayoutsText(t *testing.T) {
	for _, c := range []struct {
		names []string
		ports []int
		want  string
	}{
		{[]string{"d0", "d1", "d2"}, []int{6210, 6211, 6212}, "h: d0..d2 6200 -> 6210..6212"},
		{[]string{"a", "b"}, []int{7, 9}, "h: a,b 6200 -> 7,9"},
		{[]string{"d0", "d5", "d2"}, []int{1, 1, 1}, "h: d0,d5,d2 6200 -> 1"},
	} {
		old := make([]int, len(c.ports))
		for i := range old {
			old[i] = 6200
		}
		if got := (PortChange{Host: "h", Devices: c.names, Old: old, New: c.ports}).String(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}
