package decode

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
)

// storHosts is faults-base.hcl's stor1 and stor2 as one host block with
// for_each: the hosts differ only in their address.
const storHosts = `host "stor" {
  for_each = { stor1 = "10.0.0.2", stor2 = "10.0.0.3" }
  address  = each.value
  roles    = ["object"]
  disks "object" {
    names   = ["d1", "d2"]
    devices = ["/dev/vdb", "/dev/vdc"]
  }
  disks "dirs" { names = ["x1"] }
}
`

// foreachFaultsBase is faults-base.hcl with storHosts for its stor1 and
// stor2 blocks.
func foreachFaultsBase(t *testing.T) string {
	t.Helper()
	i, j := strings.Index(faultsBase, `host "stor1"`), strings.Index(faultsBase, `host "client1"`)
	if i < 0 || j < i {
		t.Fatal("faults-base.hcl has no stor1 block before client1")
	}
	return faultsBase[:i] + storHosts + faultsBase[j:]
}

// faultVariants refer to the hosts by name and by role.
const faultVariants = `
variant "normal" {}
variant "slow" {
  before_on = ["stor2"]
  before    = ["true"]
  fault "slow_disk" {
    hosts = ["stor2"]
    disks = ["d1"]
    at    = 10
    for   = "20s"
    write_iops = 50
  }
  fault "pause" {
    role    = "object"
    count   = 2
    service = "object-server"
    at      = 30
    for     = "end"
  }
}
`

// TestHostForEachIsTheCopies: a host block with for_each over a map loads
// into the hosts its copies would, in the same order, each named by its
// key; variants and faults name them, the ring lays them out, and the
// cells are the same.
func TestHostForEachIsTheCopies(t *testing.T) {
	copies, diags := loadDiags(t, faultsBase+faultVariants)
	if diags != "" {
		t.Fatalf("copies: %s", diags)
	}
	each, diags := loadDiags(t, foreachFaultsBase(t)+faultVariants)
	if diags != "" {
		t.Fatalf("for_each: %s", diags)
	}
	noRange := cmpopts.IgnoreTypes(hcl.Range{})
	if d := cmp.Diff(copies.Hosts, each.Hosts, noRange); d != "" {
		t.Errorf("hosts (-copies +for_each):\n%s", d)
	}
	if d := cmp.Diff(copies.Variants, each.Variants, noRange); d != "" {
		t.Errorf("variants (-copies +for_each):\n%s", d)
	}
	la, err := copies.Layout(copies.Variants[1])
	if err != nil {
		t.Fatal(err)
	}
	lb, err := each.Layout(each.Variants[1])
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(la, lb, noRange); d != "" {
		t.Errorf("layout (-copies +for_each):\n%s", d)
	}
	if a, b := idsOf(plan.Expand(copies)), idsOf(plan.Expand(each)); strings.Join(a, " ") != strings.Join(b, " ") {
		t.Errorf("cells %v, want %v", b, a)
	}
	stor2 := each.Host("stor2")
	if stor2 == nil || stor2.DefRange.Start.Line != strings.Count(foreachFaultsBase(t)[:strings.Index(foreachFaultsBase(t), `host "stor"`)], "\n")+1 {
		t.Errorf("stor2 is not declared at its block: %+v", stor2)
	}
}

// TestHostForEachNames: a list's or a set's hosts are named by the name
// attribute, evaluated per element; every attribute and block may use
// each.
func TestHostForEachNames(t *testing.T) {
	for _, c := range []struct{ name, block, want string }{
		{"list", `for_each = ["10.0.0.2", "10.0.0.3"]
  name     = "stor${each.key + 1}"
  address  = each.value`, "stor1=10.0.0.2/d1,d2 stor2=10.0.0.3/d1,d2"},
		{"set", `for_each = toset(["s2", "s1"])
  name     = each.value
  address  = "10.0.0.${substr(each.value, 1, 1) + 1}"`, "s1=10.0.0.2/d1,d2 s2=10.0.0.3/d1,d2"},
		{"map of objects", `for_each = { a = { ip = "10.0.0.2", disks = ["d1"] }, b = { ip = "10.0.0.3", disks = ["d1", "d2", "d3"] } }
  address  = each.value.ip
  disks "object" { names = each.value.disks }`, "a=10.0.0.2/d1 b=10.0.0.3/d1,d2,d3"},
		{"no for_each, a name", `name    = "solo"
  address = "10.0.0.2"`, "solo=10.0.0.2/d1,d2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			block := "host \"stor\" {\n  " + c.block + "\n  roles = [\"object\"]\n"
			if !strings.Contains(c.block, "disks \"object\"") {
				block += "  disks \"object\" { names = [\"d1\", \"d2\"] }\n"
			}
			text := strings.Replace(foreachFaultsBase(t), storHosts, block+"}\n", 1) + "variant \"normal\" {}\n"
			tb, diags := loadDiags(t, text)
			if diags != "" {
				t.Fatalf("%s\n%s", diags, text)
			}
			var got []string
			for _, h := range tb.HostsWithRole(plan.RoleObject) {
				got = append(got, fmt.Sprintf("%s=%s/%s", h.Name, h.Address, diskNames(h, "object")))
			}
			if strings.Join(got, " ") != c.want {
				t.Errorf("hosts %v, want %s", got, c.want)
			}
		})
	}
}

// TestHostForEachOverride: an override names a block with for_each by its
// label and changes every element, or one element by its name (after the
// block's override); a name no element has is an error naming the block,
// and an element's override may not change for_each or name.
func TestHostForEachOverride(t *testing.T) {
	part := strings.Replace(labPart, "host \"h1\" {\n  address = var.addr", "host \"h\" {\n  for_each = { h1 = var.addr, h2 = \"127.0.0.2\" }\n  address  = each.value", 1)
	exp := experiment + `
override {
  host "h" {
    for_each = { h1 = "127.0.0.1", h2 = "127.0.0.2", h3 = "127.0.0.3" }
  }
  host "h2" {
    disks "d" { names = concat(local.disks, ["d3"]) }
  }
}
`
	dir := writeFiles(t, map[string]string{"exp.hcl": exp, "parts/lab.hcl": part})
	tb, diags := Load(filepath.Join(dir, "exp.hcl"), LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var got []string
	for _, h := range tb.Hosts {
		got = append(got, h.Name+"="+h.Address+"/"+diskNames(h, "d"))
	}
	if want := "h1=127.0.0.1/d1,d2 h2=127.0.0.2/d1,d2,d3 h3=127.0.0.3/d1,d2"; strings.Join(got, " ") != want {
		t.Errorf("hosts %v, want %s", got, want)
	}

	bad := experiment + "\noverride {\n  host \"h9\" {\n    roles = [\"object\"]\n  }\n  host \"h1\" {\n    name = \"h7\"\n  }\n}\n"
	dir = writeFiles(t, map[string]string{"exp.hcl": bad, "parts/lab.hcl": part})
	_, diags = Load(filepath.Join(dir, "exp.hcl"), LoadOptions{})
	root, lab := filepath.Join(dir, "exp.hcl"), filepath.Join(dir, "parts", "lab.hcl")
	if !diagAt(diags, "Nothing to override", root, lineIn(bad, `host "h9"`)) ||
		!detailHas(diags, `host "h" at `+lab+`:9,`) ||
		!diagAt(diags, "Cannot override", root, lineIn(bad, `name = "h7"`)) || errorCount(diags) != 2 {
		t.Errorf("diags:\n%v", diags)
	}
}

// detailHas reports whether a diagnostic's detail has s.
func detailHas(diags hcl.Diagnostics, s string) bool {
	for _, d := range diags {
		if strings.Contains(d.Detail, s) {
			return true
		}
	}
	return false
}

// TestHostForEachLimit: MaxHosts counts the points of every for_each,
// and the host past it is refused once, at its block's for_each.
func TestHostForEachLimit(t *testing.T) {
	text := faultsBase + "variant \"normal\" {}\n"
	blocks := MaxHosts/1000 + 1
	for i := range blocks {
		text += fmt.Sprintf(`host "many%d" {
  for_each = { for n in range(1000) : "m%d-${n}" => n }
  address  = "10.%d.${floor(each.value / 250)}.${each.value %% 250 + 1}"
  roles    = ["client"]
}
`, i, i, i)
	}
	_, diags := loadDiags(t, text)
	want := fmt.Sprintf("Too many hosts: a testbed has at most %d hosts, for_each points included", MaxHosts)
	if strings.Count(diags, want) != 1 {
		t.Errorf("not one %q:\n%.2000s", want, diags)
	}
}

// diskNames joins the names of h's disks of group g.
func diskNames(h *plan.Host, g string) string {
	var names []string
	for _, d := range h.DiskGroup(g).Disks {
		names = append(names, d.Name)
	}
	return strings.Join(names, ",")
}

// errorCount counts the errors of diags (not the warnings).
func errorCount(diags hcl.Diagnostics) int {
	n := 0
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			n++
		}
	}
	return n
}

// TestShippedLabElementOverride: faults-lab.hcl overrides stor1 alone, an
// element of the lab's host "stor" block: stor1's object disks are its
// loop devices, stor2's stay directories.
func TestShippedLabElementOverride(t *testing.T) {
	tb, diags := Load("../../testbeds/lab/faults-lab.hcl", LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	for _, c := range []struct{ host, want string }{
		{"stor1", "/run/benchbed-lab/disks/stor1-d0 /run/benchbed-lab/disks/stor1-d1 /run/benchbed-lab/disks/stor1-d2 /run/benchbed-lab/disks/stor1-d3"},
		{"stor2", "   "},
	} {
		var devs []string
		for _, d := range tb.Host(c.host).DiskGroup("object").Disks {
			devs = append(devs, d.Device)
		}
		if strings.Join(devs, " ") != c.want {
			t.Errorf("%s: object devices %q, want %q", c.host, devs, c.want)
		}
	}
}
