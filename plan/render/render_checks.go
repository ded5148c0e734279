package render

import (
	"fmt"
	"strconv"

	"benchbed/plan"
	"benchbed/templates"
)

// listener is a port a rendered server conf makes a server listen on.
type listener struct {
	conf *Conf
	port int
}

// checkRendering warns about what the confs and the ring layout make
// inconsistent on a host: two servers on one port, ring ports no server
// listens on.
func checkRendering(tb *plan.Testbed, r *Rendering) []templates.Warning {
	var warns []templates.Warning
	byHost := map[string][]listener{}
	rendered := map[string]bool{}
	for _, c := range r.Confs {
		rendered[c.Host.Name] = true
		byHost[c.Host.Name] = append(byHost[c.Host.Name], listeners(r.Layout, c)...)
	}
	warns = append(warns, swiftConfsDiffer(r)...)
	warns = append(warns, sharedPortServers(r)...)
	for _, h := range tb.Hosts {
		if !rendered[h.Name] {
			continue
		}
		warns = append(warns, collisions(h, byHost[h.Name])...)
		warns = append(warns, unserved(h, r.Layout, byHost[h.Name])...)
	}
	return warns
}

// listeners returns the ports conf c listens on: the object server's ring
// ports on this host with servers_per_port > 0, else bind_port.
func listeners(l *plan.Layout, c *Conf) []listener {
	if c.Service == nil || !c.File.IsPaste() {
		return nil
	}
	if serversPerPort(c.File) > 0 && isObjectServer(c.File) {
		var out []listener
		for _, rl := range l.Rings {
			if rl.Ring.Role != c.Service.Role {
				continue
			}
			for _, p := range rl.Ports(c.Host.Name) {
				out = append(out, listener{c, p})
			}
		}
		return out
	}
	v, _ := c.File.Value("DEFAULT", "bind_port")
	p, err := strconv.Atoi(v)
	if err != nil {
		return nil
	}
	return []listener{{c, p}}
}

// serversPerPort is the conf's servers_per_port, 0 when unset or not a number.
func serversPerPort(f *templates.File) int {
	v, _ := f.Value("DEFAULT", "servers_per_port")
	n, _ := strconv.Atoi(v)
	return n
}

// isObjectServer reports whether f's app is Swift's object server, the only
// one that honours servers_per_port.
func isObjectServer(f *templates.File) bool {
	for _, s := range f.Sections {
		if k, _ := templates.Kind(s.Name); k == templates.KindApp {
			if use, _ := f.Value(s.Name, "use"); use == "egg:swift#object" {
				return true
			}
		}
	}
	return false
}

// collisions warns about ports two confs of a host listen on.
func collisions(h *plan.Host, ls []listener) []templates.Warning {
	var warns []templates.Warning
	first := map[int]*Conf{}
	for _, l := range ls {
		if o, ok := first[l.port]; ok && o != l.conf {
			warns = append(warns, templates.Warning{Host: h.Name, File: l.conf.Path, Section: "DEFAULT",
				Message: fmt.Sprintf("listens on port %d like %s: one of the two servers cannot start", l.port, o.Path)})
			continue
		}
		first[l.port] = l.conf
	}
	return warns
}

// unserved warns about ring ports of host h that no conf listens on.
func unserved(h *plan.Host, l *plan.Layout, ls []listener) []templates.Warning {
	listening := map[int]bool{}
	for _, x := range ls {
		listening[x.port] = true
	}
	var warns []templates.Warning
	for _, rl := range l.Rings {
		var missing []int
		for _, p := range rl.Ports(h.Name) {
			if !listening[p] {
				missing = append(missing, p)
			}
		}
		if len(missing) == 0 {
			continue
		}
		hint := ""
		if rl.PortPerDisk {
			hint = " (one port per disk needs servers_per_port > 0 in the object server)"
		}
		warns = append(warns, templates.Warning{Host: h.Name, File: "ring " + rl.Ring.Name,
			Message: fmt.Sprintf("no rendered server listens on port %s of its devices%s", plan.SpanNums(missing), hint)})
	}
	return warns
}

// swiftConfsDiffer warns when swift.conf is not the same on every host:
// different hash path salts place objects differently.
func swiftConfsDiffer(r *Rendering) []templates.Warning {
	var first *Conf
	var warns []templates.Warning
	for _, c := range r.Confs {
		if c.Path != SwiftConfPath {
			continue
		}
		if first == nil {
			first = c
			continue
		}
		if len(templates.Diff(first.File, c.File)) > 0 {
			warns = append(warns, templates.Warning{Host: c.Host.Name, File: c.Path,
				Message: "differs from " + first.Host.Name + "'s: Swift needs the same swift.conf on every host"})
		}
	}
	return warns
}

// sharedPortServers warns about object servers with servers_per_port whose
// ring gives their host one port: the servers then share every disk, and the
// variant measures no disk isolation.
func sharedPortServers(r *Rendering) []templates.Warning {
	var warns []templates.Warning
	for _, c := range r.Confs {
		if c.Service == nil || serversPerPort(c.File) == 0 || !isObjectServer(c.File) {
			continue
		}
		for _, rl := range r.Layout.Rings {
			if rl.Ring.Role == c.Service.Role && !rl.PortPerDisk && len(rl.Ports(c.Host.Name)) > 0 {
				warns = append(warns, templates.Warning{Host: c.Host.Name, File: c.Path, Section: "DEFAULT", Key: "servers_per_port",
					Source:  c.File.Get("DEFAULT", "servers_per_port").Source,
					Message: fmt.Sprintf("ring %s gives this host one port: its servers share every disk (set port_per_disk in the variant's ring block to isolate disks)", rl.Ring.Name)})
			}
		}
	}
	return warns
}
