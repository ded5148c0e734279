package importer

import (
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// hostGroup is hosts written as one block: one host, or a run of hosts
// alike in all but their name and address, written with for_each.
type hostGroup struct {
	label string // the for_each block's label ("" for one host)
	hosts []*dHost
}

// groupHosts groups runs of consecutive hosts that are alike but for their
// name and address (the same port, roles and disks, written the same) and
// whose names are in sorted order: a for_each map's hosts are made in its
// keys' sorted order, so a group keeps the hosts' order, which the rings'
// layout follows.
func (d *draft) groupHosts() []hostGroup {
	var gs []hostGroup
	var lastShape string
	for _, h := range d.Hosts {
		shape := string(d.hostBody(h, false))
		if n := len(gs); n > 0 {
			prev := gs[n-1].hosts[len(gs[n-1].hosts)-1]
			if shape == lastShape && prev.Name < h.Name {
				gs[n-1].hosts = append(gs[n-1].hosts, h)
				continue
			}
		}
		gs = append(gs, hostGroup{hosts: []*dHost{h}})
		lastShape = shape
	}
	taken := map[string]bool{}
	for _, h := range d.Hosts {
		taken[h.Name] = true
	}
	for i := range gs {
		if len(gs[i].hosts) > 1 {
			gs[i].label = groupLabel(gs[i].hosts, taken)
			taken[gs[i].label] = true
		}
	}
	return gs
}

// groupLabel names a group's block: the hosts' names' common prefix
// without the digits and separators that end it (stor1, stor2: "stor"),
// else their roles joined ("object-container-account"), made unique
// among the hosts' names and the other labels with a number.
func groupLabel(hs []*dHost, taken map[string]bool) string {
	prefix := hs[0].Name
	for _, h := range hs[1:] {
		for !strings.HasPrefix(h.Name, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	prefix = strings.TrimRight(prefix, "0123456789-_.")
	if prefix == "" {
		prefix = strings.Join(hs[0].Roles, "-")
	}
	if prefix == "" {
		prefix = "hosts"
	}
	label := prefix
	for n := 2; taken[label]; n++ {
		label = prefix + "-" + strconv.Itoa(n)
	}
	return label
}

// writeHostGroup writes a group of alike hosts as one host block whose
// for_each maps each host's name to its address.
func (d *draft) writeHostGroup(b *hclwrite.Body, g hostGroup) {
	var names []string
	addrs := map[string]cty.Value{}
	for _, h := range g.hosts {
		names = append(names, h.Name)
		addrs[h.Name] = cty.StringVal(h.Address)
	}
	b.AppendNewline()
	comment(b, strings.Join(names, ", ")+": alike but for their address")
	hb := b.AppendNewBlock("host", []string{g.label}).Body()
	hb.SetAttributeValue("for_each", cty.ObjectVal(addrs))
	hb.SetAttributeTraversal("address", hcl.Traversal{hcl.TraverseRoot{Name: "each"}, hcl.TraverseAttr{Name: "value"}})
	d.hostAttrs(hb, g.hosts[0])
}

// hostBody is a host's block body as written, with its address or without.
func (d *draft) hostBody(h *dHost, address bool) []byte {
	f := hclwrite.NewEmptyFile()
	hb := f.Body()
	if address {
		hb.SetAttributeValue("address", cty.StringVal(h.Address))
	}
	d.hostAttrs(hb, h)
	return f.Bytes()
}
