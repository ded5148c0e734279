package importer

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"benchbed/plan/plantest"
)

// storage is a storage host named name at addr with disks d0 and d1.
func storage(name, addr string) *dHost {
	return &dHost{Name: name, Address: addr, Roles: []string{"object"},
		Disks: []*dDisks{{Group: "object", Names: []string{"d0", "d1"}, Weight: 100}}}
}

// groups gives each group's label and its hosts' names.
func groups(gs []hostGroup) []string {
	var out []string
	for _, g := range gs {
		var names []string
		for _, h := range g.hosts {
			names = append(names, h.Name)
		}
		out = append(out, g.label+":"+strings.Join(names, ","))
	}
	return out
}

// TestGroupHosts: runs of consecutive alike hosts in sorted order are one
// group each; a host that differs (port, roles, disks), comes out of
// order or stands alone is written alone; labels are unique.
func TestGroupHosts(t *testing.T) {
	other := storage("stor4", "10.0.0.4")
	other.Disks[0].Names = []string{"d0"}
	d := &draft{Ports: map[string]int{"stor6": 2222}, Hosts: []*dHost{
		{Name: "proxy1", Address: "10.0.0.1", Roles: []string{"proxy"}},
		storage("stor1", "10.0.0.21"), storage("stor2", "10.0.0.22"), storage("stor3", "10.0.0.23"),
		other,
		storage("stor5", "10.0.0.5"), storage("stor6", "10.0.0.6"), // stor6 has another port
		storage("b2", "10.0.1.2"), storage("b1", "10.0.1.1"), // out of order: b1 goes on with x7, y8
		storage("x7", "10.0.2.7"), storage("y8", "10.0.2.8"), // no common prefix: named by the roles
		{Name: "stor", Address: "10.0.3.1", Roles: []string{"client"}},
		{Name: "stor-a", Address: "10.0.3.2", Roles: []string{"proxy"}}, {Name: "stor-b", Address: "10.0.3.3", Roles: []string{"proxy"}},
	}}
	got := groups(d.groupHosts())
	want := []string{":proxy1", "stor-2:stor1,stor2,stor3", ":stor4", ":stor5", ":stor6", ":b2", "object:b1,x7,y8", ":stor", "stor-3:stor-a,stor-b"}
	if !slices.Equal(got, want) {
		t.Errorf("groups\n got %q\nwant %q", got, want)
	}
}

// TestHostGroupLoads: what a group writes loads as its hosts, in their
// order, with their addresses, disks and ports, names that are no HCL
// identifier (dots) included.
func TestHostGroupLoads(t *testing.T) {
	d := &draft{Ports: map[string]int{"s1.lab-a": 2200, "s2.lab-a": 2200}, Hosts: []*dHost{storage("s1.lab-a", "127.0.0.3"), storage("s2.lab-a", "127.0.0.4")}}
	text := string(d.writeHCL(false))
	if !strings.Contains(text, "for_each = {") || strings.Count(text, "host \"") != 1 {
		t.Fatalf("not one for_each block:\n%s", text)
	}
	text = strings.SplitN(text, "variant \"baseline\"", 2)[0] // hosts only: no services to run
	ring := "ring \"object\" {\n  part_power = 8\n  disks = \"object\"\n}\nservice \"object-server\" {\n  role = \"object\"\n}\nvariant \"normal\" {}\n"
	tb := plantest.LoadText(t, "tb.hcl", "testbed \"t\" {}\n"+text[strings.Index(text, "\nhost "):]+ring)
	var got []string
	for _, h := range tb.Hosts[:2] { // then the fixture's workload's client
		got = append(got, fmt.Sprintf("%s@%s:%d/%s", h.Name, h.Address, h.Port, h.Disks[0].Disks[1].Name))
	}
	if want := []string{"s1.lab-a@127.0.0.3:2200/d1", "s2.lab-a@127.0.0.4:2200/d1"}; !slices.Equal(got, want) {
		t.Errorf("hosts %q, want %q\n%s", got, want, text)
	}
}
