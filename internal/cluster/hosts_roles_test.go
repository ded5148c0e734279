package cluster

import (
	"slices"
	"testing"

	"benchbed/plan"
)

// TestHostsRunning: the services and generic services of a host are those
// of its roles, in declaration order, and the hosts that run any are
// listed in theirs; a host that runs nothing is in neither list.
func TestHostsRunning(t *testing.T) {
	proxy := &plan.Host{Name: "p", Roles: []string{"proxy", "client"}}
	store := &plan.Host{Name: "s", Roles: []string{"object", "container", "dns"}}
	client := &plan.Host{Name: "c", Roles: []string{"client"}}
	tb := &plan.Testbed{
		Hosts: []*plan.Host{proxy, store, client},
		Services: []*plan.Service{
			{Name: "container", Role: "container"}, {Name: "proxy", Role: "proxy"}, {Name: "object", Role: "object"},
		},
		Generics: []*plan.Generic{{Name: "bind", Role: "dns"}},
	}
	services := func(h *plan.Host) []string {
		var out []string
		for _, s := range HostServices(tb, h) {
			out = append(out, s.Name)
		}
		return out
	}
	if got := services(store); !slices.Equal(got, []string{"container", "object"}) {
		t.Errorf("HostServices(s) = %v, want [container object] (declaration order)", got)
	}
	if got := services(client); got != nil {
		t.Errorf("HostServices(c) = %v, want none", got)
	}
	if got := Names(ServiceHosts(tb)); !slices.Equal(got, []string{"p", "s"}) {
		t.Errorf("ServiceHosts = %v, want [p s]", got)
	}
	if got := HostGenerics(tb, store); len(got) != 1 || got[0].Name != "bind" {
		t.Errorf("HostGenerics(s) = %v, want [bind]", got)
	}
	if got := Names(GenericHosts(tb)); !slices.Equal(got, []string{"s"}) {
		t.Errorf("GenericHosts = %v, want [s]", got)
	}
}
