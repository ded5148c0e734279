package faults

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"benchbed/plan"
)

// DevicesRoot is where Swift's storage servers find their disks.
const DevicesRoot = "/srv/node"

// RunDir is where a directly started daemon keeps its pid file (as the
// sweep starts it).
const RunDir = "/var/run/swift"

// Resolve returns fault number i of variant v (v.Faults[i]) as one Target
// per host: the host's address, the service as its manager runs it, the
// disks' devices and mount points, the ports to drop, the ring device.
// A direct service's Start, which a stop's undo runs, is left for the
// sweep to fill in (it owns the start scripts).
func Resolve(tb *plan.Testbed, v *plan.Variant, i int) ([]Target, error) {
	if v == nil || i < 0 || i >= len(v.Faults) {
		return nil, fmt.Errorf("variant has no fault %d", i)
	}
	f := v.Faults[i]
	var out []Target
	for _, name := range f.Hosts {
		h := tb.Host(name)
		if h == nil {
			return nil, fmt.Errorf("%s fault: no host %q", f.Kind, name)
		}
		t := Target{ID: fmt.Sprintf("f%d-%s", i, name), Host: name, Address: h.Address, Fault: f}
		if len(t.ID) > 24 {
			t.ID = t.ID[:24]
		}
		if len(f.Services) > 0 {
			t.Service = service(tb.Service(f.Services[0]))
		}
		for _, d := range f.Disks {
			t.Disks = append(t.Disks, Disk{Name: d, Device: device(h, d), Mount: path.Join(DevicesRoot, d)})
		}
		switch f.Kind {
		case plan.FaultPartition:
			t.Ports = f.Ports
			if len(t.Ports) == 0 {
				t.Ports = HostPorts(tb, v, h, f.Services)
			}
		case plan.FaultRebalance:
			r, err := ring(tb, f, h)
			if err != nil {
				return nil, err
			}
			t.Ring, t.Host, t.Address = r, r.Builder, tb.Host(r.Builder).Address
		}
		out = append(out, t)
	}
	return out, nil
}

// service returns s as its manager runs it (the unit names the sweep's
// managers use).
func service(s *plan.Service) Service {
	if s == nil {
		return Service{}
	}
	out := Service{Name: s.Name, Manager: s.Manager, Conf: s.Path, Unit: s.Unit}
	switch {
	case s.Manager == plan.ManagerSystemd && out.Unit == "":
		out.Unit = "swift-" + strings.TrimSuffix(s.Name, "-server")
	case s.Manager == plan.ManagerSwiftInit && out.Unit == "":
		out.Unit = s.Name
	case s.Manager == plan.ManagerDirect:
		out.PidFile = path.Join(RunDir, s.Name+".pid")
	}
	return out
}

// device returns the block device of host h's disk name ("" for a directory).
func device(h *plan.Host, name string) string {
	for _, g := range h.Disks {
		for _, d := range g.Disks {
			if d.Name == name {
				return d.Device
			}
		}
	}
	return ""
}

// HostPorts returns the TCP ports host h's Swift services listen on in
// variant v, sorted: its ring devices' ports and the bind_port of its
// services that set one (the proxy's 8080 otherwise). Only the named
// services' when services is not empty.
func HostPorts(tb *plan.Testbed, v *plan.Variant, h *plan.Host, services []string) []int {
	var out []int
	add := func(p int) {
		if p > 0 && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	wanted := func(role string) bool {
		if len(services) == 0 {
			return true
		}
		for _, name := range services {
			if s := tb.Service(name); s != nil && s.Role == role {
				return true
			}
		}
		return false
	}
	if l, err := tb.Layout(v); err == nil {
		for _, rl := range l.Rings {
			for _, d := range rl.Devices {
				if d.Host == h.Name && wanted(rl.Ring.Role) {
					add(d.Port)
				}
			}
		}
	}
	for _, s := range tb.Services {
		if !h.HasRole(s.Role) || (len(services) > 0 && !slices.Contains(services, s.Name)) {
			continue
		}
		if set, ok := tb.Effective(s, v)["DEFAULT"]["bind_port"]; ok {
			if p, err := strconv.Atoi(strings.TrimSpace(set.Value)); err == nil {
				add(p)
			}
		} else if s.Role == plan.RoleProxy {
			add(8080)
		}
	}
	slices.Sort(out)
	return out
}

// ring resolves a rebalance fault's ring device on host h and the host
// that keeps the builders.
func ring(tb *plan.Testbed, f *plan.Fault, h *plan.Host) (Ring, error) {
	r := tb.Ring(f.Ring)
	if r == nil || len(f.Disks) != 1 {
		return Ring{}, fmt.Errorf("rebalance fault: no ring %q or not one disk", f.Ring)
	}
	b, err := tb.BuilderHost()
	if err != nil {
		return Ring{}, fmt.Errorf("rebalance fault: %w", err)
	}
	return Ring{Name: r.Name, Dir: "/etc/swift", Device: h.Address + "/" + f.Disks[0], Weight: f.Weight, Builder: b.Name}, nil
}
