package render

import (
	"path/filepath"
	"strings"
	"testing"

	"benchbed/plan/decode"
	"benchbed/plan/plantest"
)

// TestPortChangeText spells runs of devices and ports the short way.
func TestPortChangeText(t *testing.T) {
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

// TestLayoutText: the seed's layout with one port per disk names each
// ring's mode and every device.
func TestLayoutText(t *testing.T) {
	tb := plantest.LoadSeed(t)
	spp, err := tb.Layout(tb.Variant("servers_per_port=2"))
	if err != nil {
		t.Fatal(err)
	}
	text := LayoutText(spp)
	for _, want := range []string{"# ring object: part_power 18, replicas 3, one port per disk from 6210", "stor2 192.168.201.62:6238/d28 100", "# ring account: part_power 12, replicas 3, one port per host (6202)"} {
		if !strings.Contains(text, want) {
			t.Errorf("layout text lacks %q", want)
		}
	}
}

// TestRenderRefusesSharedPorts: a variant whose ring ports collide renders
// nothing, like its layout.
func TestRenderRefusesSharedPorts(t *testing.T) {
	text := plantest.Fixture(t, "port-clash.hcl") + plantest.Fixture(t, "minimal-workload.hcl")
	tb, diags := decode.LoadSource(filepath.Join(t.TempDir(), "clash.hcl"), []byte(text), decode.LoadOptions{})
	if !diags.HasErrors() {
		t.Fatal("Load should refuse the testbed")
	}
	if _, err := Render(tb, tb.Variant("perdisk"), Options{}); err == nil || !strings.Contains(err.Error(), "port 6201") {
		t.Fatalf("Render must fail like Layout: %v", err)
	}
}
