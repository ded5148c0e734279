package decode

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"benchbed/plan"
)

// TestFormatAndPackages decodes format = true | "force" and the packages
// lists of hosts and services (set, empty, absent).
func TestFormatAndPackages(t *testing.T) {
	text := strings.Replace(minimal, `disks "d" { names = ["d1", "d2"] }`, `packages = []
  disks "d" {
    names   = ["d1", "d2"]
    devices = ["/dev/vdb", "/dev/vdc"]
    format  = "force"
  }
  disks "m" {
    names   = ["m0"]
    devices = ["/dev/vdd"]
    format  = true
  }`, 1) + `
service "object-server" {
  role     = "object"
  packages = ["swift-object", "xfsprogs"]
  daemons  = ["replicator", "auditor"]
}
variant "v" {}
`
	tb := mustLoad(t, text, LoadOptions{}, nil)
	h := tb.Host("h1")
	if !h.PackagesSet || len(h.Packages) != 0 {
		t.Errorf("host packages = %q (set %v), want an empty list that is set", h.Packages, h.PackagesSet)
	}
	got := []plan.Disk{h.DiskGroup("d").Disks[0], h.DiskGroup("m").Disks[0]}
	want := []plan.Disk{
		{Name: "d1", Device: "/dev/vdb", Format: true, Force: true, Weight: plan.DefaultDiskWeight},
		{Name: "m0", Device: "/dev/vdd", Format: true, Weight: plan.DefaultDiskWeight},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("disks (-want +got):\n%s", diff)
	}
	s := tb.Service("object-server")
	if diff := cmp.Diff([]string{"swift-object", "xfsprogs"}, s.Packages); diff != "" || !s.PackagesSet {
		t.Errorf("service packages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"replicator", "auditor"}, s.Daemons); diff != "" {
		t.Errorf("service daemons (-want +got):\n%s", diff)
	}
	if tb2 := mustLoad(t, minimal+"service \"o\" { role = \"object\" }\nvariant \"v\" {}\n", LoadOptions{}, nil); tb2.Host("h1").PackagesSet {
		t.Errorf("a host without packages has PackagesSet")
	}
}
