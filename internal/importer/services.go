package importer

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"benchbed/plan"
)

// setServices makes a service of each server role some host has: its
// conf, its manager (which every host of the role must share) and the
// background daemons that run beside it on all of them.
func (d *draft) setServices() {
	for _, role := range serverRoles {
		hosts := d.hostsWithRole(role)
		if len(hosts) == 0 {
			continue
		}
		s := &dService{Name: role + "-server", Role: role}
		var daemons map[string]int
		for _, h := range hosts {
			d.serviceOn(s, h, &daemons)
		}
		for k, n := range daemons {
			if n == len(hosts) {
				s.Daemons = append(s.Daemons, k)
			} else {
				d.Diags.add(Warning, "", "%s-%s runs on %d of the %d %s hosts: not described (a service's daemons run on all its hosts)", role, k, n, len(hosts), role)
			}
		}
		slices.Sort(s.Daemons)
		d.Services = append(d.Services, s)
	}
	for _, s := range d.Services {
		if s.Manager == "" {
			d.guessManager(s)
		}
	}
}

// guessManager gives service s, whose server runs on none of its hosts,
// the manager that the other services of those hosts share (a server
// stopped or restarting while the hosts were read is started as its
// neighbours are), else plan.DefaultManager; either is said.
func (d *draft) guessManager(s *dService) {
	manager, unit := "", ""
	for _, o := range d.Services {
		if o == s || o.Manager == "" || !slices.ContainsFunc(o.Hosts, func(h string) bool { return slices.Contains(s.Hosts, h) }) {
			continue
		}
		if manager != "" && (o.Manager != manager || o.Unit != "") {
			manager = "?"
			break
		}
		manager, unit = o.Manager, o.Unit
	}
	if manager == "" || manager == "?" || unit != "" {
		s.Manager = plan.DefaultManager
		d.Diags.add(Warning, "", "%s runs on none of its hosts: manager %s is a guess", s.Name, s.Manager)
		return
	}
	s.Manager = manager
	d.Diags.add(Warning, "", "%s runs on none of its hosts: manager %s, as the other Swift servers of its hosts", s.Name, s.Manager)
}

// serviceOn reads service s on host h: its server's manager, unit and
// conf, its daemons (counted in daemons).
func (d *draft) serviceOn(s *dService, h *dHost, daemons *map[string]int) {
	conf := ""
	for _, sv := range h.Facts.Servers() {
		if sv.Role != s.Role {
			continue
		}
		if sv.Kind != "server" {
			if *daemons == nil {
				*daemons = map[string]int{}
			}
			(*daemons)[sv.Kind]++
			continue
		}
		conf = sv.Conf
		d.setManager(s, h, sv)
	}
	if conf == "" {
		conf = path.Join("/etc/swift", s.Name+".conf")
		d.Diags.add(Warning, h.Name, "no %s runs here (%d Swift processes of this machine are in other namespaces): its conf is read from %s", s.Name, h.Facts.Elsewhere, conf)
	}
	switch {
	case s.Path == "":
		s.Path = conf
	case s.Path != conf:
		d.Diags.add(Error, h.Name, "%s reads %s, on %s it reads %s: a service has one path", s.Name, conf, s.Hosts[0], s.Path)
	}
	if _, ok := h.Facts.Confs[conf]; !ok {
		d.Diags.add(Error, h.Name, "%s: %s is not a readable file in /etc/swift (a conf directory, or elsewhere, is not described)", s.Name, conf)
	}
	s.Hosts = append(s.Hosts, h.Name)
}

// setManager records server sv's manager on h into s, reporting hosts that
// disagree.
func (d *draft) setManager(s *dService, h *dHost, sv Server) {
	unit := sv.Unit
	if unit == "swift-"+s.Role {
		unit = ""
	}
	if s.Manager == "" {
		s.Manager, s.Unit = sv.Manager, unit
		s.Note = fmt.Sprintf("manager %s: %s on %s", sv.Manager, sv.How, h.Name)
		return
	}
	if s.Manager != sv.Manager || s.Unit != unit {
		d.Diags.add(Error, h.Name, "%s is started by %s (%s), on other hosts by %s: a service has one manager (written: %s)",
			s.Name, sv.Manager, sv.How, strings.TrimSpace(s.Manager+" "+s.Unit), s.Manager)
	}
}
