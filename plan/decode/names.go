package decode

import (
	"regexp"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
)

// nameRE is what a host, service, variant or workload name may look like:
// it ends up in file names and cell ids.
var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:=@+-]*$`)

// checkName reports a name that is empty, too long or has odd characters.
func (d *decoder) checkName(name string, rng hcl.Range, kind string) bool {
	if nameRE.MatchString(name) && len(name) <= 128 {
		return true
	}
	d.Errorf(rng.Ptr(), "Invalid "+kind+" name",
		"%s name %q must start with a letter or digit and use only letters, digits and . _ : = @ + -", kind, name)
	return false
}

// duplicate reports b when a block of the same kind and name came before.
func (d *decoder) duplicate(b *hcl.Block, kind string, prev *hcl.Range) bool {
	if prev == nil {
		return false
	}
	d.Errorf(b.LabelRanges[0].Ptr(), "Duplicate "+kind, "%s %q is already declared at %s", kind, b.Labels[0], prev)
	return true
}

func (d *decoder) ringRange(name string) *hcl.Range {
	for _, r := range d.tb.Rings {
		if r.Name == name {
			return r.DefRange.Ptr()
		}
	}
	return nil
}

func (d *decoder) serviceRange(name string) *hcl.Range {
	for _, s := range d.tb.Services {
		if s.Name == name {
			return s.DefRange.Ptr()
		}
	}
	if g := d.tb.Generic(name); g != nil {
		return g.DefRange.Ptr()
	}
	return nil
}

func (d *decoder) workloadNames() map[string]bool {
	m := map[string]bool{}
	for _, w := range d.tb.Workloads {
		m[w.Name] = true
	}
	return m
}

// expandWorkloadRefs replaces each name in list that is no workload but
// the label of a workload block with for_each by that block's axis points,
// in order: a prefill may name the whole axis.
func (d *decoder) expandWorkloadRefs(list []string) []string {
	known := d.workloadNames()
	out := make([]string, 0, len(list))
	for _, n := range list {
		var points []string
		for _, w := range d.tb.Workloads {
			if !known[n] && w.Axis != nil && w.Block == n {
				points = append(points, w.Name)
			}
		}
		if len(points) == 0 {
			points = []string{n}
		}
		out = append(out, points...)
	}
	return out
}

// checkRefs reports names in list that known does not have.
func (d *decoder) checkRefs(a *hcl.Attribute, list []string, what string, known map[string]bool) {
	d.CheckUnique(a, list, what)
	for _, s := range list {
		if !known[s] {
			d.Errorf(a.Expr.Range().Ptr(), "Unknown "+what, "no %s is named %q", what, s)
		}
	}
}

// checkClients reports clients that are no host or lack the client role.
func (d *decoder) checkClients(a *hcl.Attribute, clients []string) {
	d.CheckUnique(a, clients, "client")
	for _, c := range clients {
		h := d.tb.Host(c)
		switch {
		case h == nil:
			d.Errorf(a.Expr.Range().Ptr(), "Unknown client host", "client %q is no host of this testbed", c)
		case !h.HasRole(plan.RoleClient):
			d.Errorf(a.Expr.Range().Ptr(), "Client host lacks the client role",
				"host %q runs load agents but its roles %q do not include %q", c, h.Roles, plan.RoleClient)
		}
	}
}

// defaultClients gives workloads without clients every host with the
// client role.
func (d *decoder) defaultClients() {
	var all []string
	for _, h := range d.tb.Hosts {
		if h.HasRole(plan.RoleClient) {
			all = append(all, h.Name)
		}
	}
	for _, w := range d.tb.Workloads {
		if w.Clients != nil {
			continue
		}
		if len(all) == 0 {
			d.Errorf(w.DefRange.Ptr(), "No client hosts", "workload %q has no clients and no host has the %q role", w.Name, plan.RoleClient)
		}
		w.Clients = all
	}
}
